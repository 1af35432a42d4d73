package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A view of one complex number in double storage (real part at {@code 2*index}, imaginary part at
 * {@code 2*index+1}), for buffers of {@code MPI.DOUBLE_COMPLEX}. Views over a ByteBuffer use that
 * buffer's byte order.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;
    private final int offset;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        this.buffer = buffer;
        this.offset = index * 2;
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static DoubleComplex get(DoubleBuffer buffer) {
        return new DoubleComplex(buffer, 0);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static DoubleComplex get(double[] array) {
        return new DoubleComplex(DoubleBuffer.wrap(array), 0);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static DoubleComplex get(ByteBuffer buffer) {
        return new DoubleComplex(buffer.asDoubleBuffer(), 0);
    }

    /**
     * The complex number at the given index (0 when none is given) of the buffer or array, as a
     * view whose changes write through.
     */
    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return new DoubleComplex(buffer.asDoubleBuffer(), index);
    }

    /** The real part. */
    public double getReal() {
        return buffer.get(offset);
    }

    /** The imaginary part. */
    public double getImag() {
        return buffer.get(offset + 1);
    }

    /** Sets the real part. */
    public void putReal(double real) {
        buffer.put(offset, real);
    }

    /** Sets the imaginary part. */
    public void putImag(double imag) {
        buffer.put(offset + 1, imag);
    }

    /** The buffer sliced to start at this number. */
    public DoubleBuffer getBuffer() {
        return offset == 0 ? buffer : MPI.slice(buffer, offset);
    }
}
