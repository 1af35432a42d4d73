package org.verbatim.datatype;

/**
 * How a type was made (MPI_Type_get_envelope's combiner). The codes are MPI's
 * {@code MPI_COMBINER_*} values as Open MPI numbers them.
 */
public enum Combiner {
    NAMED(0), DUP(1), CONTIGUOUS(2), VECTOR(3), HVECTOR(5), INDEXED(6), HINDEXED(8),
    INDEXED_BLOCK(9), STRUCT(11), SUBARRAY(12), DARRAY(13), RESIZED(17), HINDEXED_BLOCK(18);

    private final int code;

    Combiner(int code) {
        this.code = code;
    }

    /** The MPI_COMBINER_* value. */
    public int code() {
        return code;
    }
}
