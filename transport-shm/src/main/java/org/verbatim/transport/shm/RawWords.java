package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Loads and stores of the inbox's counters and record headers by address, through one constant
 * segment that spans the address space (as {@link org.verbatim.spi.support.SmallCopy} copies):
 * the JIT folds its type, session and bounds checks away, where the same access through the
 * mapped file's segment (a field, not a constant) pays for all of them on every word, a fifth
 * of an 8-byte send's samples. What the checks would guarantee is the caller's: {@link MpscRing}
 * checks once per operation that the mapping is alive and that the offset lies in its file.
 */
final class RawWords {
    /** Address 0 to Long.MAX_VALUE, global session: every check on it folds. */
    static final MemorySegment ALL = org.verbatim.spi.support.AddressSpace.ALL;
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private RawWords() {
    }
}
