package org.verbatim.spi;

/**
 * Access rights of a memory registration ({@link Transport#register(java.lang.foreign.MemorySegment,
 * int)}), after verbs' {@code ibv_access_flags}. A transport refuses an operation whose target
 * registration lacks the right one with {@link CompletionStatus#REMOTE_ACCESS_ERROR}.
 */
public final class Access {
    /** The local side of reads and atomics writes into it. */
    public static final int LOCAL_WRITE = 1;
    /** Peers may write into it. */
    public static final int REMOTE_WRITE = 1 << 1;
    /** Peers may read from it. */
    public static final int REMOTE_READ = 1 << 2;
    /** Peers may run atomics on its 64-bit words. */
    public static final int REMOTE_ATOMIC = 1 << 3;
    /** Every right: what {@link Transport#register(java.lang.foreign.MemorySegment)} gives. */
    public static final int ALL = LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ | REMOTE_ATOMIC;

    private Access() {
    }

    /** True when {@code granted} includes every right in {@code needed}. */
    public static boolean allows(int granted, int needed) {
        return (granted & needed) == needed;
    }
}
