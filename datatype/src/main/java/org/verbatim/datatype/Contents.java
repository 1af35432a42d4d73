package org.verbatim.datatype;

import java.util.List;

/**
 * The arguments a type was made with (MPI_Type_get_envelope and MPI_Type_get_contents): the
 * combiner, the integer arguments, the address arguments (byte displacements, lb and extent)
 * and the types, in the order the MPI standard lists them for that combiner.
 */
public record Contents(Combiner combiner, int[] integers, long[] addresses, List<TypeNode> types) {
    public Contents {
        integers = integers.clone();
        addresses = addresses.clone();
        types = List.copyOf(types);
    }

    static Contents named() {
        return new Contents(Combiner.NAMED, new int[0], new long[0], List.of());
    }

    @Override
    public int[] integers() {
        return integers.clone();
    }

    @Override
    public long[] addresses() {
        return addresses.clone();
    }
}
