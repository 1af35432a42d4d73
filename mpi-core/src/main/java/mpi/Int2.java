package mpi;

/**
 * The C struct {int value; int index} of {@code MPI.INT2}, for MAXLOC and MINLOC; the index is at
 * byte offset 4 (LP64). Use the singleton {@code MPI.int2} with byte[] or ByteBuffer buffers and
 * counts in pairs: {@code Int2.Data d = MPI.int2.getData(buffer, i)}.
 */
public final class Int2 extends Struct {
    private final int valueOff = addInt();
    private final int indexOff = setOffset(4).addInt();

    protected Int2() {
    }

    @Override
    protected Int2.Data newData() {
        return new Data();
    }

    /** One {value, index} pair in a buffer. */
    public final class Data extends Struct.Data {
        /** The first int of this pair (the value). */
        public int getValue() {
            return getInt(valueOff);
        }

        /** The second int of this pair (the index, as MPI_MAXLOC and MPI_MINLOC use it). */
        public int getIndex() {
            return getInt(indexOff);
        }

        /** Sets the first int of this pair (the value). */
        public void putValue(int v) {
            putInt(valueOff, v);
        }

        /** Sets the second int of this pair (the index). */
        public void putIndex(int v) {
            putInt(indexOff, v);
        }
    }
}
