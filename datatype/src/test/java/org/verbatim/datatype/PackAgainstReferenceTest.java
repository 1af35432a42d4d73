package org.verbatim.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random type trees (depth up to 4, every constructor) and random counts and cut points: the
 * engine's pack and unpack of every byte range equal the naive typemap's, bounds and sizes
 * agree with the typemap, and the flattened form packs the same.
 */
class PackAgainstReferenceTest {
    private static final int TYPES = 1500;

    @Test
    void randomTreesPackAndUnpackLikeTheTypemap() {
        RandomTypes gen = new RandomTypes(20261126);
        Random rnd = gen.random();
        int checked = 0;
        for (int t = 0; t < TYPES; t++) {
            TypeNode type = gen.next(4);
            NaiveTypemap one = NaiveTypemap.of(type, 1);
            // shift the origin so no byte lies below it (the base holds the origin at byte 0)
            if (one.lowest() < 0 || (type.extent() < 0)) {
                type = Types.hindexed(new int[] {1}, new long[] {-one.lowest() + rnd.nextInt(3)}, type);
            }
            // small counts, and enough elements for the field-by-field (transposed) loop
            long count = rnd.nextInt(3) == 0 ? 8 + rnd.nextInt(9) : rnd.nextInt(4);
            NaiveTypemap ref = NaiveTypemap.of(type, count);
            if (ref.lowest() < 0 || ref.bytes() > 1 << 16) {
                continue;
            }
            CommittedType c = CommittedType.of(type);
            checkAgainst(c, type, count, ref, rnd);
            checked++;
        }
        assertEquals(true, checked > TYPES / 2, "too few types checked: " + checked);
    }

    private static void checkAgainst(CommittedType c, TypeNode type, long count, NaiveTypemap ref,
                                     Random rnd) {
        String what = describe(type) + " x" + count;
        NaiveTypemap one = NaiveTypemap.of(type, 1);
        assertEquals(one.bytes(), c.size(), what + ": size");
        if (one.offsets.length > 0) {
            assertEquals(one.lowest(), c.trueLb(), what + ": true lb");
            assertEquals(one.highest() - one.lowest(), c.trueExtent(), what + ": true extent");
        }
        for (long b = 0; b <= c.size(); b += 1 + rnd.nextInt(5)) {
            assertEquals(one.leavesIn(b), type.leavesIn(b), what + ": leaves in " + b);
        }
        int span = (int) Math.max(ref.highest(), 1) + rnd.nextInt(4);
        byte[] base = new byte[span];
        rnd.nextBytes(base);
        MemorySegment baseSeg = MemorySegment.ofArray(base);
        byte[] expected = ref.pack(base);
        MessageShape shape = c.shape(count);
        assertEquals(expected.length, shape.bytes(), what + ": bytes");

        // whole pack
        byte[] packed = new byte[expected.length];
        c.pack(baseSeg, count, MemorySegment.ofArray(packed), 0);
        assertArrayEquals(expected, packed, what + ": pack");

        // pack cut at random points, resumed
        byte[] pieces = new byte[expected.length + 3];
        TypeCursor cur = c.cursor(count);
        int at = 0;
        while (cur.remaining() > 0) {
            long n = Math.min(cur.remaining(), 1 + rnd.nextInt(Math.max(1, expected.length / 3 + 1)));
            cur.pack(baseSeg, MemorySegment.ofArray(pieces), at + 3, n);
            at += (int) n;
        }
        assertArrayEquals(expected, Arrays.copyOfRange(pieces, 3, 3 + expected.length),
                what + ": pack in pieces");

        // any byte range, by seek
        if (expected.length > 0) {
            int from = rnd.nextInt(expected.length);
            int len = rnd.nextInt(expected.length - from + 1);
            byte[] range = new byte[len];
            c.cursor(count).seek(from).pack(baseSeg, MemorySegment.ofArray(range), 0, len);
            assertArrayEquals(Arrays.copyOfRange(expected, from, from + len), range,
                    what + ": pack [" + from + ", " + (from + len) + ")");
        }

        // small messages: every byte range [from, to), packed and unpacked
        if (expected.length <= 48) {
            byte[] packedData = new byte[expected.length];
            rnd.nextBytes(packedData);
            for (int from = 0; from <= expected.length; from++) {
                for (int to = from; to <= expected.length; to++) {
                    byte[] range = new byte[to - from];
                    c.cursor(count).seek(from).pack(baseSeg, MemorySegment.ofArray(range), 0, to - from);
                    assertArrayEquals(Arrays.copyOfRange(expected, from, to), range,
                            what + ": pack [" + from + ", " + to + ")");
                    byte[] into = base.clone();
                    byte[] want = base.clone();
                    ref.unpackRange(packedData, from, to, want);
                    c.cursor(count).seek(from).unpack(MemorySegment.ofArray(packedData), from,
                            MemorySegment.ofArray(into), to - from);
                    assertArrayEquals(want, into, what + ": unpack [" + from + ", " + to + ")");
                }
            }
        }

        // unpack, whole and in pieces: the typemap's bytes get the data, the gaps keep theirs
        byte[] data = new byte[expected.length];
        rnd.nextBytes(data);
        byte[] want = new byte[span];
        Arrays.fill(want, (byte) 0x5A);
        ref.unpack(data, want);
        byte[] got = new byte[span];
        Arrays.fill(got, (byte) 0x5A);
        c.unpack(MemorySegment.ofArray(data), 0, MemorySegment.ofArray(got), count);
        assertArrayEquals(want, got, what + ": unpack");
        Arrays.fill(got, (byte) 0x5A);
        TypeCursor u = c.cursor(count);
        int p = 0;
        while (u.remaining() > 0) {
            long n = Math.min(u.remaining(), 1 + rnd.nextInt(Math.max(1, expected.length / 2 + 1)));
            u.unpack(MemorySegment.ofArray(data), p, MemorySegment.ofArray(got), n);
            p += (int) n;
        }
        assertArrayEquals(want, got, what + ": unpack in pieces");

        // the flattened form, through bytes, packs the same
        CommittedType back = FlatLayout.read(c.flatten().toBytes()).commit();
        byte[] viaFlat = new byte[expected.length];
        back.pack(baseSeg, count, MemorySegment.ofArray(viaFlat), 0);
        assertArrayEquals(expected, viaFlat, what + ": flattened");

        // statistics add up; the expanded block list covers the same bytes in order
        BlockStatistics st = shape.statistics();
        assertEquals(st.median(), shape.medianBlock(), what + ": cached median");
        assertEquals(expected.length, st.bytes(), what + ": statistics bytes");
        if (st.blocks() > 0) {
            assertEquals((double) expected.length / st.blocks(), st.mean(), 1e-9, what + ": mean");
            long[][] blocks = shape.blocks(1 << 20);
            assertEquals(st.blocks(), blocks[0].length, what + ": block count");
            assertEquals(st.blocks(), shape.blockCount(), what + ": computed block count");
            for (int i = 0; i < blocks[0].length; i++) {
                assertEquals(blocks[0][i], shape.blockOffset(i), what + ": offset of block " + i);
                assertEquals(blocks[1][i], shape.blockLength(i), what + ": length of block " + i);
            }
            byte[] viaBlocks = new byte[expected.length];
            int q = 0;
            for (int i = 0; i < blocks[0].length; i++) {
                System.arraycopy(base, (int) blocks[0][i], viaBlocks, q, (int) blocks[1][i]);
                q += (int) blocks[1][i];
            }
            assertArrayEquals(expected, viaBlocks, what + ": blocks");
        }

        // a base one byte short of the layout is refused before anything is written
        if (expected.length > 0) {
            byte[] small = new byte[(int) ref.highest() - 1];
            Arrays.fill(small, (byte) 7);
            assertThrows(DatatypeException.class, () -> c.unpack(MemorySegment.ofArray(data), 0,
                    MemorySegment.ofArray(small), count), what);
            for (byte b : small) {
                assertEquals(7, b, what + ": written out of a refused buffer");
            }
        }
    }

    static String describe(TypeNode t) {
        return switch (t) {
            case TypeNode.Leaf l -> l.name();
            case TypeNode.Regular r -> "regular(" + r.count + "," + r.blockLength + "," + r.stride
                    + "," + describe(r.child) + ")";
            case TypeNode.Entries e -> "entries(" + Arrays.toString(e.blockLengths)
                    + Arrays.toString(e.displacements) + ","
                    + (e.children.length == 0 ? "-" : describe(e.children[0])) + ")";
            case TypeNode.Resized r -> "resized(" + r.lb + "," + r.extent() + "," + describe(r.child) + ")";
        };
    }
}
