package org.verbatim.benchmarks;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.util.Arrays;
import mpi.MPI;

/**
 * The send and receive buffer of one collective at its largest size: {@code float[]} or a direct
 * {@link FloatBuffer} for the reductions, {@code byte[]} or a direct {@link ByteBuffer} for the
 * others (the blocking collectives of the Open MPI Java API take either as {@code Object}).
 */
final class CollectiveBuffers {
    final Object send;
    final Object recv;

    CollectiveBuffers(CollectiveOp op, boolean direct, int maxSize, int ranks) {
        send = allocate(op.reduction(), direct, op.sendBytes(maxSize, ranks), 1f);
        recv = allocate(op.reduction(), direct, op.recvBytes(maxSize, ranks), 0f);
    }

    private static Object allocate(boolean floats, boolean direct, long bytes, float fill) {
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("buffer of " + bytes + " bytes: use a smaller --size");
        }
        int n = (int) Math.max(bytes, 4);
        if (floats) {
            int count = n / 4;
            if (direct) {
                FloatBuffer b = MPI.newFloatBuffer(count);
                for (int i = 0; i < count; i++) {
                    b.put(i, fill);
                }
                return b;
            }
            float[] a = new float[count];
            Arrays.fill(a, fill);
            return a;
        }
        if (direct) {
            ByteBuffer b = MPI.newByteBuffer(n);
            for (int i = 0; i < n; i++) {
                b.put(i, (byte) (fill == 0 ? 'b' : 'a'));
            }
            return b;
        }
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) (fill == 0 ? 'b' : 'a'));
        return a;
    }
}
