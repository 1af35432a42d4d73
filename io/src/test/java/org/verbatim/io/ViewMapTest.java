package org.verbatim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.datatype.CommittedType;
import org.verbatim.datatype.TypeNode;
import org.verbatim.datatype.Types;
import org.verbatim.runtime.base.MpiError;

/** Views map data bytes to file bytes as a naive expansion of the tiled filetype does. */
class ViewMapTest {
    private static final TypeNode INT = Types.predefined("int", 4, 4);

    private static CommittedType commit(TypeNode t) {
        return CommittedType.of(t);
    }

    /** File offset of every data byte of [start, start+n), by expanding extents. */
    private static List<Long> expand(ViewMap v, long start, long n) {
        Extents e = new Extents();
        v.extents(start, n, e);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < e.count(); i++) {
            for (long b = 0; b < e.length(i); b++) {
                out.add(e.offset(i) + b);
            }
        }
        assertEquals(n, e.bytes());
        return out;
    }

    @Test
    void aContiguousViewIsOneExtentFromTheDisplacement() {
        ViewMap v = ViewMap.of(100, commit(INT), commit(INT));
        Extents e = new Extents();
        v.extents(8, 4000, e);
        assertEquals(1, e.count());
        assertEquals(108, e.offset(0));
        assertEquals(4000, e.length(0));
        assertEquals(140, v.fileOffset(40));
    }

    @Test
    void aVectorFiletypeTilesEveryExtent() {
        // 2 blocks of 1 int, stride 3 ints: data ints at 0 and 12 bytes; extent 16 bytes
        ViewMap v = ViewMap.of(4, commit(INT), commit(Types.vector(2, 1, 3, INT)));
        List<Long> got = expand(v, 0, 16);
        List<Long> want = new ArrayList<>();
        for (long tileStart : new long[] {4, 20}) {
            for (long block : new long[] {0, 12}) {
                for (long b = 0; b < 4; b++) {
                    want.add(tileStart + block + b);
                }
            }
        }
        assertEquals(want, got);
        // data byte 7 is the last of tile 0's second block (file 4 + 12 + 3), then tile 1 at 20
        assertEquals(List.of(19L, 20L, 21L, 22L, 23L), expand(v, 7, 5));
        assertEquals(v.fileOffset(9), (long) expand(v, 9, 1).get(0));
    }

    @Test
    void adjacentBlocksAcrossTilesMerge() {
        // a resized int with extent 4 is contiguous in effect: one extent however long
        ViewMap v = ViewMap.of(0, commit(INT), commit(Types.resized(
                Types.contiguous(2, INT), 0, 8)));
        Extents e = new Extents();
        v.extents(0, 800, e);
        assertEquals(1, e.count());
    }

    @Test
    void aSubarrayViewMatchesTheNaiveExpansion() {
        TypeNode sub = Types.subarray(new int[] {5, 7}, new int[] {2, 3}, new int[] {1, 2},
                Types.ORDER_C, INT);
        ViewMap v = ViewMap.of(0, commit(INT), commit(sub));
        List<Long> got = expand(v, 0, 2 * 6 * 4);
        List<Long> want = new ArrayList<>();
        for (int tile = 0; tile < 2; tile++) {
            for (int r = 1; r < 3; r++) {
                for (int col = 2; col < 5; col++) {
                    for (long b = 0; b < 4; b++) {
                        want.add(tile * 140L + (r * 7 + col) * 4L + b);
                    }
                }
            }
        }
        assertEquals(want, got);
        assertEquals(24, v.dataBefore(140));
        assertEquals(4, v.dataBefore((1 * 7 + 3) * 4));
    }

    @Test
    void filetypesWithDecreasingOrOverlappingBlocksAreRefused() {
        TypeNode backwards = Types.indexed(new int[] {1, 1}, new int[] {3, 0}, INT);
        MpiError e = assertThrows(MpiError.class,
                () -> ViewMap.of(0, commit(INT), commit(backwards)));
        assertEquals(org.verbatim.runtime.base.ErrorClass.ERR_TYPE, e.errorClass());
    }
}
