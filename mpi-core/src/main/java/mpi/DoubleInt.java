package mpi;

/**
 * The C struct {double value; int index} of {@code MPI.DOUBLE_INT}, for MAXLOC and MINLOC; the
 * index is at byte offset 8 (LP64). Use the singleton {@code MPI.doubleInt} with byte[] or
 * ByteBuffer buffers and counts in pairs: {@code DoubleInt.Data d = MPI.doubleInt.getData(buffer,
 * i)}.
 */
public final class DoubleInt extends Struct {
    private final int valueOff = addDouble();
    private final int indexOff = setOffset(8).addInt();

    protected DoubleInt() {
    }

    @Override
    protected DoubleInt.Data newData() {
        return new Data();
    }

    /** One {value, index} pair in a buffer. */
    public final class Data extends Struct.Data {
        /** The value of this pair. */
        public double getValue() {
            return getDouble(valueOff);
        }

        /** The index (the int) of this pair, as MPI_MAXLOC and MPI_MINLOC use it. */
        public int getIndex() {
            return getInt(indexOff);
        }

        /** Sets the value of this pair. */
        public void putValue(double v) {
            putDouble(valueOff, v);
        }

        /** Sets the index of this pair. */
        public void putIndex(int v) {
            putInt(indexOff, v);
        }
    }
}
