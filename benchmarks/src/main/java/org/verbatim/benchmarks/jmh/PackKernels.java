package org.verbatim.benchmarks.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.verbatim.datatype.CommittedType;
import org.verbatim.datatype.MessageShape;
import org.verbatim.datatype.TypeNode;
import org.verbatim.datatype.Types;

/**
 * The datatype engine's pack and unpack kernels per shape, native memory to native memory, no
 * MPI: {@code contiguous} (one copy), {@code vector} (the datatype paper's x columns of a
 * 128 x 4096 int matrix, {@code columns} = x), {@code indexed} (blocks of growing length, the
 * paper's alltoall struct shape in ints), {@code struct} ({int; double} records with a gap),
 * {@code nested} (a vector of vectors: 4 planes of 32 rows of x columns, the planes 33 rows
 * apart so they do not fold into one run; the same bytes as {@code vector}) and {@code
 * nested-struct} ({int; every other double of 8} records: a struct holding a vector, as many
 * records as fill the vector's bytes). Score: time per whole message; the bytes are printed by
 * {@link #bytes}. Divide to get GB/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PackKernels {
    private static final TypeNode.Leaf INT = Types.predefined("INT", 4, 4);
    private static final TypeNode.Leaf DOUBLE = Types.predefined("DOUBLE", 8, 8);

    @Param({"contiguous", "vector", "indexed", "struct", "nested", "nested-struct"})
    public String shape;

    @Param({"1", "64", "1024"})
    public int columns;

    /**
     * Bytes past a 64-byte boundary where the strided side starts (0: aligned; 16: where a
     * malloc'd buffer, such as a C program's or a direct buffer's, may start).
     */
    @Param({"0"})
    public int misalign;

    private Arena arena;
    private MemorySegment base;
    private MemorySegment packed;
    private MessageShape message;

    @Setup(Level.Trial)
    public void setUp() {
        TypeNode t;
        long count;
        switch (shape) {
            case "contiguous" -> {
                t = Types.contiguous(128 * columns, INT);
                count = 1;
            }
            case "vector" -> {
                t = Types.vector(128, columns, 4096, INT);
                count = 1;
            }
            case "indexed" -> {
                int n = 128;
                int[] lengths = new int[n];
                int[] displs = new int[n];
                int at = 0;
                for (int i = 0; i < n; i++) {
                    lengths[i] = 1 + (i * columns) / n;
                    displs[i] = at;
                    at += lengths[i] + 1 + i % 3;
                }
                t = Types.indexed(lengths, displs, INT);
                count = 1;
            }
            case "struct" -> {
                t = Types.struct(new int[] {1, 1}, new long[] {0, 8}, new TypeNode[] {INT, DOUBLE});
                count = 128L * columns;
            }
            case "nested" -> {
                t = Types.hvector(4, 1, 33L * 4096 * 4, Types.vector(32, columns, 4096, INT));
                count = 1;
            }
            case "nested-struct" -> {
                t = Types.struct(new int[] {1, 1}, new long[] {0, 8},
                        new TypeNode[] {INT, Types.vector(4, 1, 2, DOUBLE)});
                count = Math.max(1, 128L * columns * 4 / 36);
            }
            default -> throw new IllegalArgumentException(shape);
        }
        message = CommittedType.of(t).shape(count);
        arena = Arena.ofShared();
        base = arena.allocate(Math.max(1, message.highest()) + 64, 64)
                .asSlice(misalign, Math.max(1, message.highest()));
        packed = arena.allocate(Math.max(1, message.bytes()), 64);
        for (long i = 0; i < base.byteSize(); i++) {
            base.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) i);
        }
        System.out.println("# " + shape + " columns=" + columns + ": " + bytes() + " bytes, "
                + message.statistics());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arena.close();
    }

    public long bytes() {
        return message.bytes();
    }

    @Benchmark
    public MemorySegment pack() {
        message.cursor().pack(base, packed, 0, message.bytes());
        return packed;
    }

    @Benchmark
    public MemorySegment unpack() {
        message.cursor().unpack(packed, 0, base, message.bytes());
        return base;
    }
}
