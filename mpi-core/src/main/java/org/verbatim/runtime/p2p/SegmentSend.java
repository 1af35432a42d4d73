package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.MemoryRegistration;

/**
 * The sender's state of one message moved in segments: the receiver's slots (from its SEG_CTS),
 * the next segment, the credit of each slot (which segment it may take next, advanced by
 * SEG_ACK), and the writes in flight in post order (completions of one endpoint arrive in post
 * order), each with the pack buffer it frees and, for the last write of a segment, the segment
 * it finishes.
 */
final class SegmentSend {
    /** Most writes in flight per message. */
    static final int WINDOW = 32;
    /** Most packed segments in flight per message (bc-spup): pack buffers held at once. */
    static final int PACK_WINDOW = 4;

    /** rwg-up (gather from the blocks) rather than bc-spup (pack). */
    final boolean gather;
    long segment;
    long total;
    int count;
    int slots;
    final long[] slotAddress = new long[SegmentWire.MAX_SLOTS];
    final long[] slotKey = new long[SegmentWire.MAX_SLOTS];
    final int[] slotNext = new int[SegmentWire.MAX_SLOTS];
    int immediateBase;
    long receiverRequest;
    /** The next segment to start, and bytes of it already posted (rwg-up posts it in pieces). */
    int next;
    long posted;
    /** bc-spup: the segment packed but refused by the transport for now, posted on retry. */
    MemorySegment ready;
    int readyPool = SegmentPool.NONE;
    MemoryRegistration readyRegistration;
    /** Writes in flight, a ring in post order. */
    final MemorySegment[] flightBuffer = new MemorySegment[WINDOW];
    final int[] flightPool = new int[WINDOW];
    final MemoryRegistration[] flightRegistration = new MemoryRegistration[WINDOW];
    /** The segment a write finishes, or -1. */
    final int[] flightSegment = new int[WINDOW];
    int flightHead;
    int inFlight;
    int packedInFlight;
    /** The first failed completion's status (0: none): nothing more is posted. */
    int error;
    BlockCursor local;

    SegmentSend(boolean gather) {
        this.gather = gather;
    }

    boolean direct() {
        return slots == 0;
    }

    long length(int j) {
        return Math.min(segment, total - j * segment);
    }

    void push(MemorySegment buffer, int pool, MemoryRegistration registration, int finishes) {
        int at = (flightHead + inFlight) % WINDOW;
        flightBuffer[at] = buffer;
        flightPool[at] = pool;
        flightRegistration[at] = registration;
        flightSegment[at] = finishes;
        inFlight++;
        if (buffer != null) {
            packedInFlight++;
        }
    }

    /** Index of the oldest write in flight, removed from the ring (its fields stay readable). */
    int pop() {
        int at = flightHead;
        flightHead = (flightHead + 1) % WINDOW;
        inFlight--;
        if (flightBuffer[at] != null) {
            packedInFlight--;
        }
        return at;
    }
}
