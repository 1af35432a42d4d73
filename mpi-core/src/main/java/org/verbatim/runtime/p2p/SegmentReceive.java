package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.MemoryRegistration;

/**
 * The receiver's state of one message moved in segments (bc-spup, rwg-up): the segment size, the
 * slots the sender writes into, which segment each slot expects next, and where the slots' memory
 * came from (the unpack pool, a dynamic buffer, or the receive buffer itself when it is
 * contiguous native memory: then nothing is unpacked).
 */
final class SegmentReceive {
    long segment;
    long total;
    int count;
    int done;
    /** Slots granted (0: direct into the receive buffer). */
    int slots;
    final int[] poolIndex = new int[SegmentWire.MAX_SLOTS];
    final MemorySegment[] slotMemory = new MemorySegment[SegmentWire.MAX_SLOTS];
    final long[] slotAddress = new long[SegmentWire.MAX_SLOTS];
    final long[] slotKey = new long[SegmentWire.MAX_SLOTS];
    /** The segment each slot takes next (segment j lands in slot j mod slots). */
    final int[] slotNext = new int[SegmentWire.MAX_SLOTS];
    /** The dynamic buffer (pool empty) or the direct registration, else null. */
    MemorySegment dynamic;
    MemoryRegistration registration;
    int immediateBase;

    boolean direct() {
        return slots == 0;
    }

    /** Bytes of segment {@code j}. */
    long length(int j) {
        return Math.min(segment, total - j * segment);
    }
}
