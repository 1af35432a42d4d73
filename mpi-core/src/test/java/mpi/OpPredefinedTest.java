package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every predefined operation on every predefined datatype, against a sequential reference written
 * with ByteBuffer accessors: applicable pairs must give the reference's bytes (on heap and native
 * segments, at unaligned offsets), inapplicable pairs must be refused with MPI.ERR_OP by both
 * check and apply. No MPI.Init needed.
 */
class OpPredefinedTest {
    /** More than one staging chunk of 1024 values (Staging.CHUNK), and not a multiple of it. */
    private static final int COUNT = 2500;

    record Case(String opName, Op op, String typeName, Datatype type) {
        @Override
        public String toString() {
            return opName + " on " + typeName;
        }
    }

    static Stream<Arguments> cases() {
        Object[][] ops = {{"MAX", MPI.MAX}, {"MIN", MPI.MIN}, {"SUM", MPI.SUM},
            {"PROD", MPI.PROD}, {"LAND", MPI.LAND}, {"BAND", MPI.BAND}, {"LOR", MPI.LOR},
            {"BOR", MPI.BOR}, {"LXOR", MPI.LXOR}, {"BXOR", MPI.BXOR}, {"MINLOC", MPI.MINLOC},
            {"MAXLOC", MPI.MAXLOC}, {"REPLACE", MPI.REPLACE}, {"NO_OP", MPI.NO_OP}};
        Object[][] types = {{"BYTE", MPI.BYTE}, {"CHAR", MPI.CHAR}, {"SHORT", MPI.SHORT},
            {"BOOLEAN", MPI.BOOLEAN}, {"INT", MPI.INT}, {"LONG", MPI.LONG},
            {"FLOAT", MPI.FLOAT}, {"DOUBLE", MPI.DOUBLE}, {"PACKED", MPI.PACKED},
            {"FLOAT_COMPLEX", MPI.FLOAT_COMPLEX}, {"DOUBLE_COMPLEX", MPI.DOUBLE_COMPLEX},
            {"INT2", MPI.INT2}, {"SHORT_INT", MPI.SHORT_INT}, {"LONG_INT", MPI.LONG_INT},
            {"FLOAT_INT", MPI.FLOAT_INT}, {"DOUBLE_INT", MPI.DOUBLE_INT}};
        List<Arguments> out = new ArrayList<>();
        for (Object[] o : ops) {
            for (Object[] t : types) {
                out.add(Arguments.of(new Case((String) o[0], (Op) o[1], (String) t[0],
                        (Datatype) t[1])));
            }
        }
        return out.stream();
    }

    // The MPI 3.1 table (section 5.9.2) for the Java types, written out independently of OpCode:
    // BYTE and BOOLEAN are uint8_t and CHAR is uint16_t in Open MPI's bindings, so they are
    // integers; PACKED takes only REPLACE and NO_OP.
    private static final Set<String> INTEGER = Set.of("BYTE", "CHAR", "SHORT", "BOOLEAN", "INT",
            "LONG");
    private static final Set<String> FLOATING = Set.of("FLOAT", "DOUBLE");
    private static final Set<String> COMPLEX = Set.of("FLOAT_COMPLEX", "DOUBLE_COMPLEX");
    private static final Set<String> PAIRS = Set.of("INT2", "SHORT_INT", "LONG_INT", "FLOAT_INT",
            "DOUBLE_INT");

    static boolean defined(String op, String type) {
        return switch (op) {
            case "MAX", "MIN" -> INTEGER.contains(type) || FLOATING.contains(type);
            case "SUM", "PROD" -> INTEGER.contains(type) || FLOATING.contains(type)
                    || COMPLEX.contains(type);
            case "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR" -> INTEGER.contains(type);
            case "MINLOC", "MAXLOC" -> PAIRS.contains(type);
            case "REPLACE", "NO_OP" -> true;
            default -> throw new AssertionError(op);
        };
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesReferenceOrIsRefused(Case c) throws MPIException {
        int size = c.type.byteSize;
        if (!defined(c.opName, c.typeName)) {
            MPIException e = assertThrows(MPIException.class, () -> c.op.check(c.type));
            assertEquals(MPI.ERR_OP, e.getErrorClass());
            byte[] a = new byte[size], b = new byte[size];
            MPIException e2 = assertThrows(MPIException.class, () -> c.op.apply(
                    MemorySegment.ofArray(a), MemorySegment.ofArray(b), 1, c.type));
            assertEquals(MPI.ERR_OP, e2.getErrorClass());
            return;
        }
        c.op.check(c.type);
        Random rnd = new Random(c.toString().hashCode());
        for (int round = 0; round < 4; round++) {
            byte[] in = OpValues.random(c.typeName, COUNT, rnd, round);
            byte[] io = OpValues.random(c.typeName, COUNT, rnd, round);
            byte[] expected = io.clone();
            OpReference.apply(c.opName, c.typeName, wrap(in), wrap(expected), COUNT);

            // heap segments
            byte[] got = io.clone();
            c.op.apply(MemorySegment.ofArray(in), MemorySegment.ofArray(got), COUNT, c.type);
            assertArrayEquals(expected, got, c + " (heap) round " + round);

            // heap segments over arrays of the base type (used in place), inout typed and in bytes
            MemorySegment typedIo = typed(c.type, got.length), typedIn = typed(c.type, in.length);
            if (typedIo != null) {
                MemorySegment.copy(MemorySegment.ofArray(io), 0, typedIo, 0, io.length);
                MemorySegment.copy(MemorySegment.ofArray(in), 0, typedIn, 0, in.length);
                c.op.apply(typedIn, typedIo, COUNT, c.type);
                assertArrayEquals(expected, typedIo.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                        c + " (typed arrays) round " + round);
                MemorySegment.copy(MemorySegment.ofArray(io), 0, typedIo, 0, io.length);
                c.op.apply(MemorySegment.ofArray(in), typedIo, COUNT, c.type);
                assertArrayEquals(expected, typedIo.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE),
                        c + " (typed inout, byte[] in) round " + round);
            }

            // native segments at odd byte offsets, through the offset form
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment nin = arena.allocate(in.length + 3);
                MemorySegment nio = arena.allocate(io.length + 5);
                MemorySegment.copy(MemorySegment.ofArray(in), 0, nin, 3, in.length);
                MemorySegment.copy(MemorySegment.ofArray(io), 0, nio, 5, io.length);
                c.op.apply(nin, 3, nio, 5, COUNT, c.type);
                byte[] gotNative = nio.asSlice(5, io.length).toArray(
                        java.lang.foreign.ValueLayout.JAVA_BYTE);
                assertArrayEquals(expected, gotNative, c + " (native, offset) round " + round);
            }
        }
    }

    /** A heap segment over an array of the type's base type, or null for byte-based types. */
    static MemorySegment typed(Datatype t, int bytes) {
        return switch (t.base) {
            case CHAR -> MemorySegment.ofArray(new char[bytes / 2]);
            case SHORT -> MemorySegment.ofArray(new short[bytes / 2]);
            case INT -> MemorySegment.ofArray(new int[bytes / 4]);
            case LONG -> MemorySegment.ofArray(new long[bytes / 8]);
            case FLOAT -> MemorySegment.ofArray(new float[bytes / 4]);
            case DOUBLE -> MemorySegment.ofArray(new double[bytes / 8]);
            default -> null;
        };
    }

    static ByteBuffer wrap(byte[] a) {
        return ByteBuffer.wrap(a).order(ByteOrder.nativeOrder());
    }
}
