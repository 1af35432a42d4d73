package org.verbatim.spi.support;

import java.lang.foreign.MemorySegment;

/**
 * The whole address space as one segment (address 0 to {@code Long.MAX_VALUE}, global session),
 * for loads, stores and copies by address on hot paths: the segment is a constant, so the JIT
 * folds its type, session and bounds checks away, where an access through a segment held in a
 * field pays for them every time. What the checks would guarantee is the caller's: the range lies
 * in live native memory it owns for the duration of the access.
 */
public final class AddressSpace {
    public static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private AddressSpace() {
    }
}
