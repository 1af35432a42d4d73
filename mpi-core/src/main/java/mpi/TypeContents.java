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

    /**
     * The integer arguments (MPI's array_of_integers): counts, block lengths, and displacements
     * in extents of the old type.
     *
     * @return a copy of the integer arguments, in the standard's order for the combiner
     */
    public int[] getIntegers() {
        return integers.clone();
    }

    /**
     * The address arguments (MPI's array_of_addresses): byte displacements, strides, lower
     * bounds and extents.
     *
     * @return a copy of the address arguments, in the standard's order for the combiner
     */
    public long[] getAddresses() {
        return addresses.clone();
    }

    /**
     * The datatype arguments (MPI's array_of_datatypes): the old type or types.
     *
     * @return a copy of the datatype arguments, in the standard's order for the combiner
     */
    public Datatype[] getDatatypes() {
        return datatypes.clone();
    }
}
