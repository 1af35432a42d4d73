package mpi;

import java.nio.ByteBuffer;
import org.verbatim.runtime.BaseType;

/**
 * The function of a user {@link Op}: override one {@code call} method to compute
 * {@code inOut[i] = in[i] op inOut[i]}. For BOOLEAN-based types the Object variant is called
 * with boolean[] arrays; for all other types the ByteBuffer variant, with direct native-order
 * buffers, whose default copies the operands to arrays of the datatype's base type (byte[] for
 * PACKED, pair and struct types) and calls the Object variant.
 */
public abstract class UserFunction {
    /** A user-defined reduction; override one of the {@code call} methods. */
    public UserFunction() {
    }

    /**
     * Reduces arrays of the datatype's base type, each of {@code count * datatype.getExtent()}
     * values; the result goes into {@code inOutVec}. The default throws
     * UnsupportedOperationException.
     */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype)
            throws MPIException {
        throw new UnsupportedOperationException("Not supported yet.");
    }

    /**
     * Reduces direct, native-order buffers of {@code count} elements (count times the extent in
     * bytes); the result goes into {@code inOut}. The default copies both to arrays of the base
     * type, calls {@link #call(Object, Object, int, Datatype)} and copies the result back.
     *
     * @throws IllegalArgumentException for a BOOLEAN-based datatype (it has no buffer form)
     */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype)
            throws MPIException {
        BaseType base = datatype.base;
        int n = Math.multiplyExact(count, datatype.byteExtent / base.size());
        switch (base) {
            case BYTE -> {
                byte[] a = new byte[n], b = new byte[n];
                in.get(0, a);
                inOut.get(0, b);
                call(a, b, count, datatype);
                inOut.put(0, b);
            }
            case CHAR -> {
                char[] a = new char[n], b = new char[n];
                in.asCharBuffer().get(0, a);
                inOut.asCharBuffer().get(0, b);
                call(a, b, count, datatype);
                inOut.asCharBuffer().put(0, b);
            }
            case SHORT -> {
                short[] a = new short[n], b = new short[n];
                in.asShortBuffer().get(0, a);
                inOut.asShortBuffer().get(0, b);
                call(a, b, count, datatype);
                inOut.asShortBuffer().put(0, b);
            }
            case INT -> {
                int[] a = new int[n], b = new int[n];
                in.asIntBuffer().get(0, a);
                inOut.asIntBuffer().get(0, b);
                call(a, b, count, datatype);
                inOut.asIntBuffer().put(0, b);
            }
            case LONG -> {
                long[] a = new long[n], b = new long[n];
                in.asLongBuffer().get(0, a);
                inOut.asLongBuffer().get(0, b);
                call(a, b, count, datatype);
                inOut.asLongBuffer().put(0, b);
            }
            case FLOAT -> {
                float[] a = new float[n], b = new float[n];
                in.asFloatBuffer().get(0, a);
                inOut.asFloatBuffer().get(0, b);
                call(a, b, count, datatype);
                inOut.asFloatBuffer().put(0, b);
            }
            case DOUBLE -> {
                double[] a = new double[n], b = new double[n];
                in.asDoubleBuffer().get(0, a);
                inOut.asDoubleBuffer().get(0, b);
                call(a, b, count, datatype);
                inOut.asDoubleBuffer().put(0, b);
            }
            default -> throw new IllegalArgumentException("Unsupported datatype.");
        }
    }
}
