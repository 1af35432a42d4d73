package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The pair types through their Struct accessors, used with MAXLOC/MINLOC as an application
 * would (ties keep the smaller index), and user Struct subclasses. No Init.
 */
class OpStructTest {

    @Test
    void pairLayoutsMatchTheCStructs() throws MPIException {
        assertEquals(8, MPI.int2.getExtent());
        assertEquals(8, MPI.shortInt.getExtent());
        assertEquals(16, MPI.longInt.getExtent());
        assertEquals(8, MPI.floatInt.getExtent());
        assertEquals(16, MPI.doubleInt.getExtent());
        assertEquals(MPI.INT2.byteSize, MPI.int2.getExtent());
        assertEquals(MPI.SHORT_INT.byteSize, MPI.shortInt.getExtent());
        assertEquals(MPI.LONG_INT.byteSize, MPI.longInt.getExtent());
        assertEquals(MPI.FLOAT_INT.byteSize, MPI.floatInt.getExtent());
        assertEquals(MPI.DOUBLE_INT.byteSize, MPI.doubleInt.getExtent());
        byte[] b = new byte[16];
        DoubleInt.Data d = MPI.doubleInt.getData(b);
        d.putValue(2.5);
        d.putIndex(7);
        ByteBuffer n = ByteBuffer.wrap(b).order(java.nio.ByteOrder.nativeOrder());
        assertEquals(2.5, n.getDouble(0));
        assertEquals(7, n.getInt(8));
        ShortInt.Data s = MPI.shortInt.getData(b, 1);
        s.putValue((short) -3);
        s.putIndex(9);
        assertEquals(-3, n.getShort(8));
        assertEquals(9, n.getInt(12));
    }

    @Test
    void maxlocAndMinlocThroughTheAccessors() throws MPIException {
        // rank 0's data reduced into rank 1's: values {5,5,1,-2}, indices {0,0,0,0} vs
        // values {5,4,3,-2}, indices {1,1,1,1}
        byte[] in = new byte[4 * 8], io = new byte[4 * 8];
        int[] vin = {5, 5, 1, -2}, vio = {5, 4, 3, -2};
        for (int i = 0; i < 4; i++) {
            Int2.Data a = MPI.int2.getData(in, i), b = MPI.int2.getData(io, i);
            a.putValue(vin[i]);
            a.putIndex(0);
            b.putValue(vio[i]);
            b.putIndex(1);
        }
        byte[] io2 = io.clone();
        MPI.MAXLOC.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(io), 4, MPI.INT2);
        int[][] max = {{5, 0}, {5, 0}, {3, 1}, {-2, 0}};
        for (int i = 0; i < 4; i++) {
            Int2.Data r = MPI.int2.getData(io, i);
            assertEquals(max[i][0], r.getValue(), "value " + i);
            assertEquals(max[i][1], r.getIndex(), "index " + i);
        }
        MPI.MINLOC.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(io2), 4, MPI.INT2);
        int[][] min = {{5, 0}, {4, 1}, {1, 0}, {-2, 0}};
        for (int i = 0; i < 4; i++) {
            Int2.Data r = MPI.int2.getData(io2, i);
            assertEquals(min[i][0], r.getValue(), "value " + i);
            assertEquals(min[i][1], r.getIndex(), "index " + i);
        }
    }

    @Test
    void floatLocTiesAndNaN() throws MPIException {
        byte[] in = new byte[3 * 8], io = new byte[3 * 8];
        float[][] pairs = {{2f, 3}, {Float.NaN, 0}, {1f, 0}}; // in
        float[][] cur = {{2f, 8}, {1f, 5}, {Float.NaN, 6}};   // inout
        for (int i = 0; i < 3; i++) {
            FloatInt.Data a = MPI.floatInt.getData(in, i), b = MPI.floatInt.getData(io, i);
            a.putValue(pairs[i][0]);
            a.putIndex((int) pairs[i][1]);
            b.putValue(cur[i][0]);
            b.putIndex((int) cur[i][1]);
        }
        MPI.MAXLOC.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(io), 3, MPI.FLOAT_INT);
        FloatInt.Data r0 = MPI.floatInt.getData(io, 0), r1 = MPI.floatInt.getData(io, 1),
                r2 = MPI.floatInt.getData(io, 2);
        assertEquals(2f, r0.getValue());
        assertEquals(3, r0.getIndex(), "tie: the smaller index");
        assertEquals(1f, r1.getValue(), "a NaN in never replaces");
        assertEquals(5, r1.getIndex());
        assertEquals(Float.NaN, r2.getValue(), "a NaN inout is never replaced");
        assertEquals(6, r2.getIndex());
    }

    /** A user struct: {int a; double b[2]; char c} with the no-padding appends of the API. */
    static final class Particle extends Struct {
        final int id = addInt();
        final int pos = addDouble(2);
        final int tag = addChar();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            void id(int v) {
                putInt(id, v);
            }

            double pos(int k) {
                return getDouble(pos, k);
            }

            void pos(int k, double v) {
                putDouble(pos, k, v);
            }

            char tag() {
                return getChar(tag);
            }

            void tag(char v) {
                putChar(tag, v);
            }
        }
    }

    @Test
    void userStructOffsetsExtentAndAccessors() throws MPIException {
        Particle p = new Particle();
        assertEquals(0, p.id);
        assertEquals(4, p.pos);
        assertEquals(20, p.tag);
        assertEquals(24, p.getExtent(), "22 bytes rounded up to the 8-byte alignment of double");
        ByteBuffer buf = MPI.newByteBuffer(2 * p.getExtent());
        Particle.Data d = p.getData(buf, 1);
        d.id(11);
        d.pos(1, 3.25);
        d.tag('x');
        Particle.Data again = p.getData(buf, 1);
        assertEquals(11, again.id());
        assertEquals(3.25, again.pos(1));
        assertEquals('x', again.tag());
        assertEquals(11, buf.getInt(24));
        // a real struct type: 22 bytes of fields (the tail padding is not data), extent 24
        assertEquals(22, p.getType().byteSize);
        assertEquals(24, p.getType().byteExtent);
        assertThrows(AssertionError.class, p::addInt, "layout is fixed after first use");
        assertThrows(IllegalArgumentException.class, () -> new Particle().setOffset(1));
        MPIException e = assertThrows(MPIException.class, () -> MPI.MAX.check(p.getType()));
        assertEquals(MPI.ERR_OP, e.getErrorClass());
    }
}
