package org.verbatim.spi.support;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies of a few dozen bytes between native segments by address, through one constant segment
 * that spans the address space: the JIT folds its checks away, where {@code MemorySegment.copy}
 * pays for the segments' session and bounds checks and, once the program has copied heap segments
 * too (its type profile is shared by every caller), a virtual call per segment for the array
 * base. Used where a small eager message is copied: into a shared-memory ring record (a quarter
 * of an 8-byte send's time) and out of it into the receive buffer.
 *
 * <p>The caller guarantees what the checks would: both ranges lie in live native memory it owns
 * for the duration of the call.
 */
public final class SmallCopy {
    /** Largest copy done here; larger ones go through {@code MemorySegment.copy}. */
    public static final int MAX = 256;
    private static final MemorySegment ALL = AddressSpace.ALL;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private SmallCopy() {
    }

    /** Copies {@code n} (at most {@link #MAX}) bytes from address {@code from} to {@code to}. */
    public static void copy(long from, long to, int n) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            ALL.set(LONG, to + i, ALL.get(LONG, from + i));
        }
        for (; i < n; i++) {
            ALL.set(ValueLayout.JAVA_BYTE, to + i, ALL.get(ValueLayout.JAVA_BYTE, from + i));
        }
    }
}
