package mpi;

/**
 * The C struct {long value; int index} of {@code MPI.LONG_INT}, for MAXLOC and MINLOC; the index
 * is at byte offset 8 (LP64). Use the singleton {@code MPI.longInt} with byte[] or ByteBuffer
 * buffers and counts in pairs: {@code LongInt.Data d = MPI.longInt.getData(buffer, i)}.
 */
public final class LongInt extends Struct {
    private final int valueOff = addLong();
    private final int indexOff = setOffset(8).addInt();

    protected LongInt() {
    }

    @Override
    protected LongInt.Data newData() {
        return new Data();
    }

    /** One {value, index} pair in a buffer. */
    public final class Data extends Struct.Data {
        /** The value of this pair. */
        public long getValue() {
            return getLong(valueOff);
        }

        /** The index (the int) of this pair, as MPI_MAXLOC and MPI_MINLOC use it. */
        public int getIndex() {
            return getInt(indexOff);
        }

        /** Sets the value of this pair. */
        public void putValue(long v) {
            putLong(valueOff, v);
        }

        /** Sets the index of this pair. */
        public void putIndex(int v) {
            putInt(indexOff, v);
        }
    }
}
