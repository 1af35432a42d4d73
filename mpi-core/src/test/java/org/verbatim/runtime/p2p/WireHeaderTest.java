package org.verbatim.runtime.p2p;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

class WireHeaderTest {
    @Test
    void theWordReadsDecodeWhatTheFieldWritesWrote() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(64 + WireHeader.BASE_SIZE, 8);
            MemorySegment h = m.asSlice(24, WireHeader.BASE_SIZE); // unaligned on purpose
            int[][] cases = {{0, 0, 0}, {-1, -1, -1}, {0x7fff_ffff, Integer.MIN_VALUE, 12345},
                    {1 << 20, 3, -7}};
            for (int[] c : cases) {
                for (byte flags : new byte[] {0, WireHeader.FLAG_SYNC, (byte) 0xff}) {
                    for (short signature : new short[] {0, 1, (short) 0x8001, -1}) {
                        WireHeader.write(h, WireHeader.EAGER, flags, c[0], c[1], c[2], 99L, 5L);
                        WireHeader.writeSignature(h, signature);
                        long first = WireHeader.first(m, 24);
                        long sourceTag = WireHeader.sourceTag(m, 24);
                        assertEquals(WireHeader.kind(m, 24), (byte) WireHeader.EAGER);
                        assertEquals(flags, WireHeader.flagsOf(first));
                        assertEquals(signature, WireHeader.signatureOf(first));
                        assertEquals(WireHeader.signature(m, 24), WireHeader.signatureOf(first));
                        assertEquals(c[0], WireHeader.contextOf(first));
                        assertEquals(WireHeader.context(m, 24), WireHeader.contextOf(first));
                        assertEquals(c[1], WireHeader.sourceOf(sourceTag));
                        assertEquals(c[2], WireHeader.tagOf(sourceTag));
                        assertEquals(WireHeader.tag(m, 24), WireHeader.tagOf(sourceTag));
                    }
                }
            }
        }
    }
}
