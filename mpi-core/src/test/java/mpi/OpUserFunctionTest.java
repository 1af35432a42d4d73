package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import org.junit.jupiter.api.Test;

/** User operations: both UserFunction forms, buffers handed to them, lifecycle. No Init. */
class OpUserFunctionTest {

    /** inout = 2 * in + inout: not commutative, so operand order is visible. */
    static final class TwiceInPlus extends UserFunction {
        int calls;
        boolean sawDirect = true;

        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
            calls++;
            sawDirect &= in.isDirect() && inOut.isDirect();
            assertEquals(ByteOrder.nativeOrder(), in.order());
            assertEquals(count * 4, in.capacity());
            assertEquals(count * 4, inOut.capacity());
            IntBuffer a = in.asIntBuffer(), b = inOut.asIntBuffer();
            for (int i = 0; i < count; i++) {
                b.put(i, 2 * a.get(i) + b.get(i));
            }
        }
    }

    @Test
    void byteBufferFormOnHeapSegments() throws MPIException {
        TwiceInPlus f = new TwiceInPlus();
        Op op = new Op(f, false);
        assertFalse(op.isCommutative());
        int[] in = {1, 2, 3, -4}, io = {10, 20, 30, 40};
        op.check(MPI.INT);
        op.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(io), 4, MPI.INT);
        assertArrayEquals(new int[] {12, 24, 36, 32}, io);
        assertArrayEquals(new int[] {1, 2, 3, -4}, in);
        assertEquals(1, f.calls);
        assertTrue(f.sawDirect, "the ByteBuffer form gets direct buffers, as in Open MPI");
    }

    @Test
    void byteBufferFormOnNativeSegmentsInPlaceAndAtOffsets() throws MPIException {
        TwiceInPlus f = new TwiceInPlus();
        Op op = new Op(f, true);
        assertTrue(op.isCommutative());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(4 + 12), io = arena.allocate(8 + 12);
            for (int i = 0; i < 3; i++) {
                in.set(ValueLayout.JAVA_INT_UNALIGNED, 4 + 4L * i, i + 1);
                io.set(ValueLayout.JAVA_INT_UNALIGNED, 8 + 4L * i, 100);
            }
            op.apply(in, 4, io, 8, 3, MPI.INT);
            for (int i = 0; i < 3; i++) {
                assertEquals(100 + 2 * (i + 1), io.get(ValueLayout.JAVA_INT_UNALIGNED, 8 + 4L * i));
            }
        }
        assertEquals(1, f.calls);
    }

    @Test
    void arrayFormThroughTheDefaultByteBufferConversion() throws MPIException {
        Datatype[] seen = new Datatype[1];
        UserFunction f = new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype type) {
                seen[0] = type;
                double[] a = (double[]) inVec, b = (double[]) inOutVec;
                assertEquals(count, a.length);
                for (int i = 0; i < count; i++) {
                    b[i] = a[i] - b[i];
                }
            }
        };
        Op op = new Op(f, false);
        double[] in = {5, 7.5}, io = {1, 0.5};
        op.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(io), 2, MPI.DOUBLE);
        assertArrayEquals(new double[] {4, 7}, io);
        assertSame(MPI.DOUBLE, seen[0]);
    }

    @Test
    void arrayFormGivesTwoValuesPerComplexAndBytesForPairTypes() throws MPIException {
        int[] lengths = new int[2];
        UserFunction f = new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype type) {
                if (type == MPI.FLOAT_COMPLEX) {
                    lengths[0] = ((float[]) inOutVec).length;
                } else {
                    byte[] b = (byte[]) inOutVec;
                    lengths[1] = b.length;
                    b[0] = 42;
                }
            }
        };
        Op op = new Op(f, true);
        op.apply(MemorySegment.ofArray(new float[6]), MemorySegment.ofArray(new float[6]), 3,
                MPI.FLOAT_COMPLEX);
        byte[] pairs = new byte[3 * 16];
        op.apply(MemorySegment.ofArray(new byte[3 * 16]), MemorySegment.ofArray(pairs), 3,
                MPI.LONG_INT);
        assertEquals(6, lengths[0]);
        assertEquals(48, lengths[1]);
        assertEquals(42, pairs[0]);
    }

    @Test
    void booleanTypesUseTheObjectFormWithBooleanArrays() throws MPIException {
        UserFunction implies = new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype type) {
                boolean[] a = (boolean[]) inVec, b = (boolean[]) inOutVec;
                for (int i = 0; i < count; i++) {
                    b[i] = !a[i] || b[i];
                }
            }
        };
        Op op = new Op(implies, false);
        byte[] in = {1, 1, 0, 0}, io = {1, 0, 1, 0};
        op.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(io), 4, MPI.BOOLEAN);
        assertArrayEquals(new byte[] {1, 0, 1, 1}, io);
    }

    @Test
    void defaultFormsRefuse() throws MPIException {
        Op nothing = new Op(new UserFunction() { }, true);
        assertThrows(UnsupportedOperationException.class, () -> nothing.apply(
                MemorySegment.ofArray(new int[1]), MemorySegment.ofArray(new int[1]), 1, MPI.INT));
        UserFunction f = new UserFunction() { };
        ByteBuffer b = ByteBuffer.allocateDirect(1);
        assertThrows(IllegalArgumentException.class, () -> f.call(b, b, 1, MPI.BOOLEAN));
    }

    @Test
    void exceptionsOfTheFunctionReachTheCaller() {
        Op op = new Op(new UserFunction() {
            @Override
            public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type)
                    throws MPIException {
                throw new MPIException("from the user function");
            }
        }, true);
        MPIException e = assertThrows(MPIException.class, () -> op.apply(
                MemorySegment.ofArray(new int[1]), MemorySegment.ofArray(new int[1]), 1, MPI.INT));
        assertEquals("from the user function", e.getMessage());
    }

    @Test
    void lifecycleNullUntilUsedThenFreed() throws MPIException {
        Op op = new Op(new TwiceInPlus(), true);
        assertTrue(op.isNull(), "Open MPI creates the MPI_Op on first use");
        op.check(MPI.INT);
        assertFalse(op.isNull());
        op.free();
        assertTrue(op.isNull());
        op.free(); // freeing a freed op does nothing
        MPIException e = assertThrows(MPIException.class, () -> op.check(MPI.INT));
        assertEquals(MPI.ERR_OP, e.getErrorClass());
        MPIException e2 = assertThrows(MPIException.class, () -> op.apply(
                MemorySegment.ofArray(new int[1]), MemorySegment.ofArray(new int[1]), 1, MPI.INT));
        assertEquals(MPI.ERR_OP, e2.getErrorClass());
        MPIException e3 = assertThrows(MPIException.class, () -> new Op(null, true).check(MPI.INT));
        assertEquals(MPI.ERR_OP, e3.getErrorClass());
    }

    @Test
    void userOpsWorkOnAnyTypeAndPredefinedOpsAreCommutativeAndNotNull() throws MPIException {
        new Op(new TwiceInPlus(), true).check(MPI.DOUBLE_INT);
        assertTrue(MPI.SUM.isCommutative());
        assertFalse(MPI.MAXLOC.isNull());
    }

    @Test
    void badCountsAndShortSegmentsAreRefused() {
        MPIException e = assertThrows(MPIException.class, () -> MPI.SUM.apply(
                MemorySegment.ofArray(new int[2]), MemorySegment.ofArray(new int[3]), 3, MPI.INT));
        assertEquals(MPI.ERR_BUFFER, e.getErrorClass());
        MPIException e2 = assertThrows(MPIException.class, () -> MPI.SUM.apply(
                MemorySegment.ofArray(new int[2]), MemorySegment.ofArray(new int[2]), -1, MPI.INT));
        assertEquals(MPI.ERR_COUNT, e2.getErrorClass());
    }
}
