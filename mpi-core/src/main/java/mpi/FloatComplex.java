package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one complex number in float storage (real part at {@code 2*index}, imaginary part at
 * {@code 2*index+1}), for buffers of {@code MPI.FLOAT_COMPLEX}. Views over a ByteBuffer use that
 * buffer's byte order.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;
    private final int offset;

    private FloatComplex(FloatBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = index * 2;
    }

    public static FloatComplex get(FloatBuffer buffer) {
        return new FloatComplex(buffer, 0);
    }

    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    public static FloatComplex get(float[] array) {
        return new FloatComplex(FloatBuffer.wrap(array), 0);
    }

    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    public static FloatComplex get(ByteBuffer buffer) {
        return new FloatComplex(buffer.asFloatBuffer(), 0);
    }

    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.asFloatBuffer(), index);
    }

    public float getReal() {
        return buffer.get(offset);
    }

    public float getImag() {
        return buffer.get(offset + 1);
    }

    public void putReal(float real) {
        buffer.put(offset, real);
    }

    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /** The buffer sliced to start at this number. */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
