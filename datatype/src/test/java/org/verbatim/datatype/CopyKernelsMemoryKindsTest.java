package org.verbatim.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The kernels take a separate loop for each pair of memory kinds they narrow (native to native,
 * native to {@code byte[]} and back) and the general one for the others: every pair packs and
 * unpacks the same bytes as {@code byte[]} to {@code byte[]}, for blocks of 4, 8 and longer
 * bytes (a vector of x columns of a 16 x 64 int matrix), and leaves the gaps untouched.
 */
class CopyKernelsMemoryKindsTest {
    private static final int ROWS = 16;
    private static final int COLS = 64;

    @Test
    void everyPairOfMemoryKindsPacksAndUnpacksTheSameBytes() {
        Random rnd = new Random(13);
        byte[] matrix = new byte[ROWS * COLS * 4];
        rnd.nextBytes(matrix);
        try (Arena arena = Arena.ofConfined()) {
            // native (arena, direct buffer), byte[], int[], long[]
            java.util.List<Function<byte[], MemorySegment>> kinds = java.util.List.of(
                    b -> arena.allocate(b.length, 64).copyFrom(MemorySegment.ofArray(b)),
                    b -> MemorySegment.ofBuffer(ByteBuffer.allocateDirect(b.length)).copyFrom(MemorySegment.ofArray(b)),
                    b -> MemorySegment.ofArray(b.clone()),
                    b -> MemorySegment.ofArray(new int[b.length / 4]).copyFrom(MemorySegment.ofArray(b)),
                    b -> MemorySegment.ofArray(new long[(b.length + 7) / 8]).copyFrom(MemorySegment.ofArray(b)));
            for (int x : new int[] {1, 2, 3, 16, 64}) {
                CommittedType vec = CommittedType.of(Types.vector(ROWS, x, COLS, RandomTypes.INT));
                int bytes = (int) vec.size();
                byte[] expected = new byte[bytes];
                vec.pack(MemorySegment.ofArray(matrix), 1, MemorySegment.ofArray(expected), 0);
                byte[] data = new byte[bytes];
                rnd.nextBytes(data);
                byte[] unpacked = matrix.clone();
                vec.unpack(MemorySegment.ofArray(data), 0, MemorySegment.ofArray(unpacked), 1);
                for (int s = 0; s < kinds.size(); s++) {
                    for (int d = 0; d < kinds.size(); d++) {
                        String what = "x=" + x + ", kinds " + s + " -> " + d;
                        MemorySegment base = kinds.get(s).apply(matrix);
                        MemorySegment out = kinds.get(d).apply(new byte[bytes]);
                        vec.pack(base, 1, out, 0);
                        assertArrayEquals(expected, bytesOf(out, bytes), what + ": pack");
                        MemorySegment in = kinds.get(s).apply(data);
                        MemorySegment into = kinds.get(d).apply(matrix);
                        vec.unpack(in, 0, into, 1);
                        assertArrayEquals(unpacked, bytesOf(into, matrix.length), what + ": unpack");
                    }
                }
            }
        }
    }

    private static byte[] bytesOf(MemorySegment s, int n) {
        return s.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
    }
}
