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
        public double getValue() {
            return getDouble(valueOff);
        }

        public int getIndex() {
            return getInt(indexOff);
        }

        public void putValue(double v) {
            putDouble(valueOff, v);
        }

        public void putIndex(int v) {
            putInt(indexOff, v);
        }
    }
}
