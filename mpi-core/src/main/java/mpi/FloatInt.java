package mpi;

/**
 * The C struct {float value; int index} of {@code MPI.FLOAT_INT}, for MAXLOC and MINLOC; the
 * index is at byte offset 4 (LP64). Use the singleton {@code MPI.floatInt} with byte[] or
 * ByteBuffer buffers and counts in pairs: {@code FloatInt.Data d = MPI.floatInt.getData(buffer,
 * i)}.
 */
public final class FloatInt extends Struct {
    private final int valueOff = addFloat();
    private final int indexOff = setOffset(4).addInt();

    protected FloatInt() {
    }

    @Override
    protected FloatInt.Data newData() {
        return new Data();
    }

    /** One {value, index} pair in a buffer. */
    public final class Data extends Struct.Data {
        /** The value of this pair. */
        public float getValue() {
            return getFloat(valueOff);
        }

        /** The index (the int) of this pair, as MPI_MAXLOC and MPI_MINLOC use it. */
        public int getIndex() {
            return getInt(indexOff);
        }

        /** Sets the value of this pair. */
        public void putValue(float v) {
            putFloat(valueOff, v);
        }

        /** Sets the index of this pair. */
        public void putIndex(int v) {
            putInt(indexOff, v);
        }
    }
}
