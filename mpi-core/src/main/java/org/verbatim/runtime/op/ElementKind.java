package org.verbatim.runtime.op;

/**
 * The element a predefined reduction kernel works on: one C type of Open MPI's Java bindings.
 * {@code mpi.BYTE} and {@code mpi.BOOLEAN} are {@code uint8_t} there and {@code mpi.CHAR} is
 * {@code uint16_t}, so their MAX and MIN compare unsigned. A datatype maps to one kind and a
 * number of kind elements per datatype element (1 for the predefined types; a contiguous derived
 * type of n INTs would be n INT32 elements), so derived types reuse these kernels.
 *
 * <p>Pair kinds are the C structs {@code {value; int index}} with the compiler's layout on LP64:
 * <pre>
 *   INT_INT, SHORT_INT, FLOAT_INT     LONG_INT, DOUBLE_INT
 *   +-------+-------+                 +---------------+-------+-------+
 *   | value | index |  8 bytes        |     value     | index |  pad  |  16 bytes
 *   +-------+-------+                 +---------------+-------+-------+
 *   0       4       8                 0               8      12      16
 * </pre>
 * (SHORT_INT's value is 2 bytes followed by 2 bytes of padding.)
 */
public enum ElementKind {
    UINT8(1, Family.INTEGER, 0),
    UINT16(2, Family.INTEGER, 0),
    INT16(2, Family.INTEGER, 0),
    INT32(4, Family.INTEGER, 0),
    INT64(8, Family.INTEGER, 0),
    FLOAT32(4, Family.FLOATING, 0),
    FLOAT64(8, Family.FLOATING, 0),
    /** C {@code float _Complex}: real then imaginary part. */
    COMPLEX64(8, Family.COMPLEX, 0),
    /** C {@code double _Complex}: real then imaginary part. */
    COMPLEX128(16, Family.COMPLEX, 0),
    INT_INT(8, Family.PAIR, 4),
    SHORT_INT(8, Family.PAIR, 4),
    LONG_INT(16, Family.PAIR, 8),
    FLOAT_INT(8, Family.PAIR, 4),
    DOUBLE_INT(16, Family.PAIR, 8),
    /** Bytes without arithmetic meaning (MPI_PACKED): only REPLACE and NO_OP apply. */
    OPAQUE(1, Family.OPAQUE, 0);

    /** Groups of kinds that the predefined operations are defined on (MPI 3.1 section 5.9.2). */
    public enum Family { INTEGER, FLOATING, COMPLEX, PAIR, OPAQUE }

    private final int size;
    private final Family family;
    private final int indexOffset;

    ElementKind(int size, Family family, int indexOffset) {
        this.size = size;
        this.family = family;
        this.indexOffset = indexOffset;
    }

    /** Bytes from one element to the next (the C extent). */
    public int size() {
        return size;
    }

    public Family family() {
        return family;
    }

    /** Byte offset of the int index in a pair kind; 0 for the others. */
    public int indexOffset() {
        return indexOffset;
    }
}
