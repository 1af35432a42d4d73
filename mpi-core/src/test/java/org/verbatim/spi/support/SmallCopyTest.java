package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class SmallCopyTest {
    @Test
    void copiesEveryLengthAndOffsetExactlyAndNothingAround() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(SmallCopy.MAX + 16);
            MemorySegment dst = arena.allocate(SmallCopy.MAX + 64);
            for (int i = 0; i < src.byteSize(); i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 3));
            }
            for (int n = 0; n <= SmallCopy.MAX; n++) {
                for (int from = 0; from < 8; from += 3) {
                    for (int to = 16; to < 24; to += 5) {
                        dst.fill((byte) 0x5A);
                        SmallCopy.copy(src.address() + from, dst.address() + to, n);
                        for (int i = 0; i < dst.byteSize(); i++) {
                            byte expected = i >= to && i < to + n
                                    ? src.get(ValueLayout.JAVA_BYTE, from + i - to) : (byte) 0x5A;
                            assertEquals(expected, dst.get(ValueLayout.JAVA_BYTE, i),
                                    "byte " + i + " of a copy of " + n + " from +" + from + " to +" + to);
                        }
                    }
                }
            }
        }
    }
}
