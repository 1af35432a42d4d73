package mpi;

/**
 * The C struct {short value; int index} of {@code MPI.SHORT_INT}, for MAXLOC and MINLOC; the
 * index is at byte offset 4 (LP64). Use the singleton {@code MPI.shortInt} with byte[] or
 * ByteBuffer buffers and counts in pairs: {@code ShortInt.Data d = MPI.shortInt.getData(buffer,
 * i)}.
 */
public final class ShortInt extends Struct {
    private final int valueOff = addShort();
    private final int indexOff = setOffset(4).addInt();

    protected ShortInt() {
    }

    @Override
    protected ShortInt.Data newData() {
        return new Data();
    }

    /** One {value, index} pair in a buffer. */
    public final class Data extends Struct.Data {
        /** The value of this pair. */
        public short getValue() {
            return getShort(valueOff);
        }

        /** The index (the int) of this pair, as MPI_MAXLOC and MPI_MINLOC use it. */
        public int getIndex() {
            return getInt(indexOff);
        }

        /** Sets the value of this pair. */
        public void putValue(short v) {
            putShort(valueOff, v);
        }

        /** Sets the index of this pair. */
        public void putIndex(int v) {
            putInt(indexOff, v);
        }
    }
}
