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

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static FloatComplex get(FloatBuffer buffer) {
        return new FloatComplex(buffer, 0);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static FloatComplex get(float[] array) {
        return new FloatComplex(FloatBuffer.wrap(array), 0);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static FloatComplex get(ByteBuffer buffer) {
        return new FloatComplex(buffer.asFloatBuffer(), 0);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.asFloatBuffer(), index);
    }

    /** The real part. */
    public float getReal() {
        return buffer.get(offset);
    }

    /** The imaginary part. */
    public float getImag() {
        return buffer.get(offset + 1);
    }

    /** Sets the real part. */
    public void putReal(float real) {
        buffer.put(offset, real);
    }

    /** Sets the imaginary part. */
    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /** The buffer sliced to start at this number. */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
