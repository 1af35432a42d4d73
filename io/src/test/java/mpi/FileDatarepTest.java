package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data representations of {@link File#setView}: "internal" is the native layout, and
 * "external32" puts big-endian bytes on disk (read back raw with java.nio), converting per
 * predefined element by the memory type's type map in every read and write family, never
 * touching the caller's buffer on a write. One process (MPI.COMM_SELF of a singleton).
 */
class FileDatarepTest {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    @TempDir
    Path dir;

    @BeforeAll
    static void init() throws MPIException {
        SingletonMpi.init();
    }

    private File open(String name) throws MPIException {
        return new File(MPI.COMM_SELF, dir.resolve(name).toString(),
                MPI.MODE_CREATE | MPI.MODE_RDWR);
    }

    private byte[] raw(String name) throws Exception {
        return Files.readAllBytes(dir.resolve(name));
    }

    private static byte[] bigEndian(int bytes, Consumer<ByteBuffer> fill) {
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.BIG_ENDIAN);
        fill.accept(b);
        assertEquals(bytes, b.position(), "reference filled");
        return b.array();
    }

    private static Object copyOf(Object array) {
        return switch (array) {
            case byte[] a -> a.clone();
            case char[] a -> a.clone();
            case short[] a -> a.clone();
            case boolean[] a -> a.clone();
            case int[] a -> a.clone();
            case long[] a -> a.clone();
            case float[] a -> a.clone();
            case double[] a -> a.clone();
            default -> throw new IllegalArgumentException(array.toString());
        };
    }

    private static Object emptyLike(Object array) {
        return java.lang.reflect.Array.newInstance(array.getClass().getComponentType(),
                java.lang.reflect.Array.getLength(array));
    }

    /** Writes {@code data} under external32, checks the raw file, reads it back. */
    private void roundTrip(String name, Datatype type, int count, Object data, byte[] want)
            throws Exception {
        Object before = copyOf(data);
        File f = open(name);
        f.setView(0, MPI.BYTE, MPI.BYTE, "external32");
        Status w = f.writeAt(0, data, count, type);
        assertEquals(count, w.getCount(type), name + ": elements written");
        assertTrue(Objects.deepEquals(before, data), name + ": the write left the buffer alone");
        Object back = emptyLike(data);
        f.readAt(0, back, count, type);
        f.close();
        assertArrayEquals(want, raw(name), name + ": big-endian on disk");
        assertTrue(Objects.deepEquals(data, back), name + ": read back");
    }

    @Test
    void everyPredefinedTypeIsBigEndianOnDiskAndRoundTrips() throws Exception {
        roundTrip("byte", MPI.BYTE, 3, new byte[] {1, -2, 3}, new byte[] {1, -2, 3});
        roundTrip("packed", MPI.PACKED, 2, new byte[] {9, 8}, new byte[] {9, 8});
        roundTrip("boolean", MPI.BOOLEAN, 3, new boolean[] {true, false, true},
                new byte[] {1, 0, 1});
        char[] chars = {'a', '\u1234', '\uffee'};
        roundTrip("char", MPI.CHAR, 3, chars, bigEndian(6, b -> {
            for (char c : chars) {
                b.putChar(c);
            }
        }));
        short[] shorts = {1, -2, 0x1234};
        roundTrip("short", MPI.SHORT, 3, shorts, bigEndian(6, b -> {
            for (short s : shorts) {
                b.putShort(s);
            }
        }));
        int[] ints = {1, -2, 0x12345678, Integer.MIN_VALUE};
        roundTrip("int", MPI.INT, 4, ints, bigEndian(16, b -> {
            for (int i : ints) {
                b.putInt(i);
            }
        }));
        long[] longs = {1, -2, 0x123456789abcdef0L};
        roundTrip("long", MPI.LONG, 3, longs, bigEndian(24, b -> {
            for (long l : longs) {
                b.putLong(l);
            }
        }));
        float[] floats = {1.5f, -2.25f, Float.MAX_VALUE, 3e-5f};
        roundTrip("float", MPI.FLOAT, 4, floats, bigEndian(16, b -> {
            for (float x : floats) {
                b.putFloat(x);
            }
        }));
        roundTrip("float complex", MPI.FLOAT_COMPLEX, 2, floats, bigEndian(16, b -> {
            for (float x : floats) {
                b.putFloat(x);
            }
        }));
        double[] doubles = {1.5, -2.25, Math.PI, 1e300};
        roundTrip("double", MPI.DOUBLE, 4, doubles, bigEndian(32, b -> {
            for (double x : doubles) {
                b.putDouble(x);
            }
        }));
        roundTrip("double complex", MPI.DOUBLE_COMPLEX, 2, doubles, bigEndian(32, b -> {
            for (double x : doubles) {
                b.putDouble(x);
            }
        }));
    }

    @Test
    void pairTypesConvertEachWord() throws Exception {
        ByteBuffer pairs = ByteBuffer.allocate(16).order(NATIVE);
        pairs.putInt(0x01020304).putInt(-5).putInt(7).putInt(0x7f000001);
        roundTrip("2int", MPI.INT2, 2, pairs.array(), bigEndian(16, b -> b.putInt(0x01020304)
                .putInt(-5).putInt(7).putInt(0x7f000001)));
        ByteBuffer floatInt = ByteBuffer.allocate(16).order(NATIVE);
        floatInt.putFloat(2.5f).putInt(3).putFloat(-1f).putInt(0x11223344);
        roundTrip("float_int", MPI.FLOAT_INT, 2, floatInt.array(), bigEndian(16, b ->
                b.putFloat(2.5f).putInt(3).putFloat(-1f).putInt(0x11223344)));
    }

    /** struct {int a; (gap) double b; short c[2]; (gap)}: each field swapped by its size. */
    private static Datatype gappedStruct() throws MPIException {
        Datatype t = Datatype.createStruct(new int[] {1, 1, 2}, new int[] {0, 8, 16},
                new Datatype[] {MPI.INT, MPI.DOUBLE, MPI.SHORT});
        t.commit();
        return t;
    }

    private static void putElement(ByteBuffer b, int at, int e) {
        b.putInt(at, 1000 + e).putDouble(at + 8, e + 0.125).putShort(at + 16, (short) -e)
                .putShort(at + 18, (short) (0x1234 + e));
    }

    private static void putBigEndian(ByteBuffer b, int e) {
        b.putInt(1000 + e).putDouble(e + 0.125).putShort((short) -e)
                .putShort((short) (0x1234 + e));
    }

    @Test
    void structWithGapsConvertsByItsTypeMap() throws Exception {
        Datatype t = gappedStruct();
        int extent = t.getExtent();
        int n = 3;
        ByteBuffer mem = ByteBuffer.allocateDirect(n * extent).order(NATIVE);
        for (int i = 0; i < mem.capacity(); i++) {
            mem.put(i, (byte) 0x7f);
        }
        for (int e = 0; e < n; e++) {
            putElement(mem, e * extent, e);
        }
        ByteBuffer before = ByteBuffer.allocate(mem.capacity());
        before.put(0, mem, 0, mem.capacity());

        // memory type struct, contiguous file: the packed fields, big-endian
        File f = open("struct");
        f.setView(0, MPI.BYTE, MPI.BYTE, "external32");
        f.writeAt(0, mem, n, t);
        assertEquals(before, ByteBuffer.allocate(mem.capacity()).put(0, mem, 0, mem.capacity()),
                "the write left the buffer alone");
        ByteBuffer back = ByteBuffer.allocateDirect(n * extent).order(NATIVE);
        for (int i = 0; i < back.capacity(); i++) {
            back.put(i, (byte) 0x55);
        }
        f.readAt(0, back, n, t);
        f.close();
        assertArrayEquals(bigEndian(16 * n, b -> {
            for (int e = 0; e < n; e++) {
                putBigEndian(b, e);
            }
        }), raw("struct"));
        for (int e = 0; e < n; e++) {
            int at = e * extent;
            assertEquals(1000 + e, back.getInt(at));
            assertEquals(e + 0.125, back.getDouble(at + 8));
            assertEquals((short) -e, back.getShort(at + 16));
            assertEquals((short) (0x1234 + e), back.getShort(at + 18));
            assertEquals(0x55, back.get(at + 4), "gaps untouched by the read");
        }

        // the struct as the filetype too: the file keeps its gaps, the fields are big-endian
        File g = open("struct-view");
        g.setView(0, MPI.BYTE, t, "external32");
        g.write(mem, n, t);
        g.close();
        byte[] file = raw("struct-view");
        ByteBuffer want = ByteBuffer.allocate(file.length).order(ByteOrder.BIG_ENDIAN);
        for (int e = 0; e < n; e++) {
            want.position(e * extent);
            want.putInt(1000 + e).position(e * extent + 8);
            want.putDouble(e + 0.125).putShort((short) -e).putShort((short) (0x1234 + e));
        }
        assertArrayEquals(want.array(), file);
    }

    private static int[] block(int k) {
        int[] b = new int[4];
        for (int i = 0; i < 4; i++) {
            b[i] = 0x01020304 * (k + 1) + i;
        }
        return b;
    }

    private static ByteBuffer direct(int[] values) {
        ByteBuffer b = ByteBuffer.allocateDirect(4 * values.length).order(NATIVE);
        for (int v : values) {
            b.putInt(v);
        }
        return b.clear();
    }

    private static int[] ints(ByteBuffer b) {
        int[] out = new int[b.capacity() / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getInt(4 * i);
        }
        return out;
    }

    @Test
    void everyReadAndWriteFamilyConverts() throws Exception {
        File f = open("families");
        f.setView(0, MPI.INT, MPI.INT, "external32");
        Datatype t = MPI.INT;
        ByteBuffer[] d = new ByteBuffer[14];
        for (int k = 0; k < d.length; k++) {
            d[k] = direct(block(k));
        }
        int[] heap1 = block(1);
        int[] heap3 = block(3);
        int[] heap12 = block(12);
        f.writeAt(0, block(0), 4, t);
        f.writeAtAll(4, heap1, 4, t);
        f.seek(8, MPI.SEEK_SET);
        f.write(block(2), 4, t);
        f.writeAll(heap3, 4, t);
        f.seekShared(16, MPI.SEEK_SET);
        f.writeShared(block(4), 4, t);
        f.writeOrdered(block(5), 4, t);
        f.iWriteAt(24, d[6], 4, t).waitFor();
        f.iWriteAtAll(28, d[7], 4, t).waitFor();
        f.seek(32, MPI.SEEK_SET);
        f.iWrite(d[8], 4, t).waitFor();
        Request.waitAll(new Request[] {f.iWriteAll(d[9], 4, t)});
        f.seekShared(40, MPI.SEEK_SET);
        f.iWriteShared(d[10], 4, t).waitFor();
        f.writeAtAllBegin(44, d[11], 4, t);
        f.writeAtAllEnd(d[11]);
        f.seek(48, MPI.SEEK_SET);
        f.writeAllBegin(heap12, 4, t);
        f.writeAllEnd(heap12);
        f.seekShared(52, MPI.SEEK_SET);
        int[] heap13 = block(13);
        f.writeOrderedBegin(heap13, 4, t);
        f.writeOrderedEnd(heap13);
        assertArrayEquals(block(1), heap1);
        assertArrayEquals(block(3), heap3);
        assertArrayEquals(block(12), heap12);
        for (int k = 0; k < d.length; k++) {
            assertArrayEquals(block(k), ints(d[k]), "direct buffer " + k + " untouched");
        }
        f.sync();
        assertArrayEquals(bigEndian(56 * 4, b -> {
            for (int k = 0; k < 14; k++) {
                for (int v : block(k)) {
                    b.putInt(v);
                }
            }
        }), raw("families"));

        int[][] got = new int[14][4];
        ByteBuffer[] in = new ByteBuffer[14];
        for (int k = 0; k < in.length; k++) {
            in[k] = ByteBuffer.allocateDirect(16).order(NATIVE);
        }
        f.readAt(0, got[0], 4, t);
        f.readAtAll(4, got[1], 4, t);
        f.seek(8, MPI.SEEK_SET);
        f.read(got[2], 4, t);
        f.readAll(got[3], 4, t);
        f.seekShared(16, MPI.SEEK_SET);
        f.readShared(got[4], 4, t);
        f.readOrdered(got[5], 4, t);
        f.iReadAt(24, in[6], 4, t).waitFor();
        Request r7 = f.iReadAtAll(28, in[7], 4, t);
        while (!r7.test()) {
            Thread.onSpinWait();
        }
        f.seek(32, MPI.SEEK_SET);
        f.iRead(in[8], 4, t).waitFor();
        Request.waitAll(new Request[] {f.iReadAll(in[9], 4, t)});
        f.seekShared(40, MPI.SEEK_SET);
        f.iReadShared(in[10], 4, t).waitFor();
        f.readAtAllBegin(44, in[11], 4, t);
        f.readAtAllEnd(in[11]);
        f.seek(48, MPI.SEEK_SET);
        f.readAllBegin(got[12], 4, t);
        f.readAllEnd(got[12]);
        f.seekShared(52, MPI.SEEK_SET);
        f.readOrderedBegin(got[13], 4, t);
        f.readOrderedEnd(got[13]);
        f.close();
        for (int k = 0; k < 14; k++) {
            int[] v = k >= 6 && k <= 11 ? ints(in[k]) : got[k];
            assertArrayEquals(block(k), v, "block " + k + " read back");
        }
    }

    @Test
    void aShortReadConvertsWhatItReadAndLeavesTheRest() throws Exception {
        File f = open("short");
        f.setView(0, MPI.BYTE, MPI.BYTE, "external32");
        f.writeAt(0, new long[] {0x0102030405060708L}, 1, MPI.LONG);
        long[] back = {-1, -1};
        Status s = f.readAt(0, back, 2, MPI.LONG);
        f.close();
        assertEquals(1, s.getCount(MPI.LONG));
        assertArrayEquals(new long[] {0x0102030405060708L, -1}, back);
    }

    @Test
    void internalIsTheNativeLayout() throws Exception {
        int[] data = {1, -2, 0x12345678};
        for (String rep : new String[] {"native", "internal"}) {
            File f = open(rep);
            f.setView(4, MPI.INT, MPI.INT, rep);
            assertEquals(rep, f.getView().getDataRep());
            f.write(data, 3, MPI.INT);
            int[] back = new int[3];
            f.readAt(0, back, 3, MPI.INT);
            assertArrayEquals(data, back);
            f.close();
        }
        assertArrayEquals(raw("native"), raw("internal"));
        ByteBuffer want = ByteBuffer.allocate(16).order(NATIVE).putInt(4, 1).putInt(8, -2)
                .putInt(12, 0x12345678);
        assertArrayEquals(want.array(), raw("internal"));
    }

    @Test
    void namesMatchCaseInsensitivelyAndAreReportedAsGiven() throws Exception {
        File f = open("upper");
        f.setView(0, MPI.INT, MPI.INT, "EXTERNAL32");
        assertEquals("EXTERNAL32", f.getView().getDataRep());
        f.write(new int[] {0x0a0b0c0d}, 1, MPI.INT);
        f.close();
        assertArrayEquals(new byte[] {0x0a, 0x0b, 0x0c, 0x0d}, raw("upper"));
    }

    @Test
    void badRepresentationsFailBeforeAnythingIsWritten() throws Exception {
        File f = open("bad");
        MPIException e = assertThrows(MPIException.class,
                () -> f.setView(0, MPI.BYTE, MPI.BYTE, "xdr"));
        assertEquals(MPI.ERR_UNSUPPORTED_DATAREP, e.getErrorClass());
        assertEquals("native", f.getView().getDataRep(), "the view did not change");
        e = assertThrows(MPIException.class, () -> f.setView(0, MPI.BYTE, MPI.BYTE, null));
        assertEquals(MPI.ERR_UNSUPPORTED_DATAREP, e.getErrorClass());
        e = assertThrows(MPIException.class,
                () -> f.setView(0, MPI.SHORT_INT, MPI.SHORT_INT, "external32"));
        assertEquals(MPI.ERR_UNSUPPORTED_DATAREP, e.getErrorClass());
        assertTrue(e.getMessage().contains("MPI_SHORT_INT"), e.getMessage());
        Datatype holdsLongInt = Datatype.createContiguous(2, MPI.LONG_INT);
        holdsLongInt.commit();
        e = assertThrows(MPIException.class,
                () -> f.setView(0, MPI.BYTE, holdsLongInt, "external32"));
        assertTrue(e.getMessage().contains("MPI_LONG_INT"), e.getMessage());

        f.setView(0, MPI.BYTE, MPI.BYTE, "external32");
        e = assertThrows(MPIException.class,
                () -> f.writeAt(0, new byte[16], 1, MPI.DOUBLE_INT));
        assertEquals(MPI.ERR_UNSUPPORTED_DATAREP, e.getErrorClass());
        assertTrue(e.getMessage().contains("MPI_DOUBLE_INT"), e.getMessage());
        assertEquals(0, f.getSize(), "nothing written");
        assertEquals(1, f.getTypeExtent(MPI.DOUBLE));
        assertEquals(gappedStruct().getExtent(), f.getTypeExtent(gappedStruct()));
        e = assertThrows(MPIException.class, () -> f.getTypeExtent(MPI.LONG_INT));
        assertEquals(MPI.ERR_UNSUPPORTED_DATAREP, e.getErrorClass());
        f.close();
        assertEquals(0, raw("bad").length);
    }
}
