package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import org.junit.jupiter.api.Test;

/** Complex SUM and PROD, including C99 Annex G's infinities, and the complex views. No Init. */
class OpComplexTest {

    @Test
    void sumAndProductOfDoubleComplex() throws MPIException {
        double[] in = {1, 2, 3, -1}, io = {3, 4, 0.5, 2};
        double[] prod = io.clone();
        MPI.SUM.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(io), 2, MPI.DOUBLE_COMPLEX);
        assertEquals(4, DoubleComplex.get(io, 0).getReal());
        assertEquals(6, DoubleComplex.get(io, 0).getImag());
        assertEquals(3.5, DoubleComplex.get(io, 1).getReal());
        assertEquals(1, DoubleComplex.get(io, 1).getImag());
        MPI.PROD.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(prod), 2,
                MPI.DOUBLE_COMPLEX);
        // (3+4i)(1+2i) = -5+10i; (0.5+2i)(3-i) = 3.5+5.5i
        assertEquals(-5, prod[0]);
        assertEquals(10, prod[1]);
        assertEquals(3.5, prod[2]);
        assertEquals(5.5, prod[3]);
    }

    @Test
    void floatComplexProduct() throws MPIException {
        float[] in = {0, 1}, io = {0, 1};
        MPI.PROD.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(io), 1, MPI.FLOAT_COMPLEX);
        assertEquals(-1f, FloatComplex.get(io).getReal(), "i * i = -1");
        assertEquals(0f, FloatComplex.get(io).getImag());
    }

    @Test
    void annexGRecoversInfinities() throws MPIException {
        double inf = Double.POSITIVE_INFINITY, nan = Double.NaN;
        // (inf + inf i)(1 + 0i): textbook gives NaN + NaN i; C gives inf + inf i
        double[] io = {inf, inf}, in = {1, 0};
        MPI.PROD.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(io), 1, MPI.DOUBLE_COMPLEX);
        assertEquals(inf, io[0]);
        assertEquals(inf, io[1]);
        // (NaN + 0i)(1 + 0i) stays NaN + NaN i: nothing infinite to recover
        double[] io2 = {nan, 0}, in2 = {1, 0};
        MPI.PROD.apply(MemorySegment.ofArray(in2), MemorySegment.ofArray(io2), 1,
                MPI.DOUBLE_COMPLEX);
        assertEquals(nan, io2[0]);
        assertEquals(nan, io2[1]);
        // float: (inf + NaN i)(2 + 0i) -> inf * ((1)(2) - 0) = inf, inf * (0 + 0) = NaN
        float[] fio = {Float.POSITIVE_INFINITY, Float.NaN}, fin = {2, 0};
        MPI.PROD.apply(MemorySegment.ofArray(fin), MemorySegment.ofArray(fio), 1,
                MPI.FLOAT_COMPLEX);
        assertEquals(Float.POSITIVE_INFINITY, fio[0]);
        assertEquals(Float.NaN, fio[1]);
    }

    @Test
    void viewsOverArraysAndBuffers() {
        ByteBuffer b = MPI.newByteBuffer(32);
        DoubleComplex z = DoubleComplex.get(b, 1);
        z.putReal(1.5);
        z.putImag(-2);
        assertEquals(1.5, b.order(ByteOrder.nativeOrder()).getDouble(16));
        assertEquals(-2, b.getDouble(24));
        DoubleBuffer slice = z.getBuffer();
        assertEquals(1.5, slice.get(0));
        float[] f = new float[4];
        FloatComplex.get(f, 1).putImag(7f);
        assertEquals(7f, f[3]);
    }
}
