package mpi;

/**
 * Verbatim extension: the arguments a derived datatype was made with (MPI_Type_get_contents),
 * in the order the MPI standard lists them for its combiner ({@link Datatype#getEnvelope()}).
 * Integers are counts, block lengths and displacements in extents; addresses are byte
 * displacements, strides, lower bounds and extents.
 */
public final class TypeContents {
    private final int[] integers;
    private final long[] addresses;
    private final Datatype[] datatypes;

    TypeContents(int[] integers, long[] addresses, Datatype[] datatypes) {
        this.integers = integers;
        this.addresses = addresses;
        this.datatypes = datatypes;
    }

    public int[] getIntegers() {
        return integers.clone();
    }

    public long[] getAddresses() {
        return addresses.clone();
    }

    public Datatype[] getDatatypes() {
        return datatypes.clone();
    }
}
