package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.IBV_ACCESS_LOCAL_WRITE;
import static org.verbatim.verbs.raw.verbs_h_constants.IBV_ACCESS_REMOTE_WRITE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.verbs.MemoryRegion;
import org.verbatim.verbs.ProtectionDomain;

/**
 * The receiving side of one peer's RDMA fast path: a registered ring of eager slots
 * ({@link FastPathDescriptor}) that the peer writes into, polled by tag.
 */
final class FastPathRing {
    private static final VarHandle TAG = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment memory;
    private final MemoryRegion region;
    private final int slots;
    private final int slotSize;
    final CreditAccount credits;
    private long reads;
    private int granted;

    FastPathRing(ProtectionDomain pd, Arena arena, int slots, int maxMessage) {
        this.slots = slots;
        this.slotSize = FastPathDescriptor.slotSize(maxMessage);
        this.memory = arena.allocate((long) slots * slotSize, 4096);
        this.region = pd.register(memory, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
        this.credits = new CreditAccount(slots);
    }

    /** Delivers every message that has arrived, in order; returns how many. */
    int poll(int source, CompletionHandler handler) {
        int n = 0;
        while (true) {
            long end = (long) FastPathDescriptor.slot(reads, slots) * slotSize + slotSize;
            int tag = (int) TAG.getAcquire(memory, end - FastPathDescriptor.TAG_FROM_END);
            if (tag != FastPathDescriptor.tag(reads, slots)) {
                return n;
            }
            int length = memory.get(ValueLayout.JAVA_INT, end - FastPathDescriptor.LENGTH_FROM_END);
            granted += memory.get(ValueLayout.JAVA_INT, end - FastPathDescriptor.CREDITS_FROM_END);
            reads++;
            handler.onReceive(source, memory, end - FastPathDescriptor.FOOTER - length, length);
            credits.consumed();
            n++;
        }
    }

    /**
     * Takes the credits for the reverse direction (our writes into the peer's ring) that the
     * messages delivered so far piggybacked, resetting the count.
     */
    int takeGranted() {
        int g = granted;
        granted = 0;
        return g;
    }

    long bytes() {
        return memory.byteSize();
    }

    long address() {
        return memory.address();
    }

    int rkey() {
        return region.rkey();
    }

    int slots() {
        return slots;
    }

    int slotSize() {
        return slotSize;
    }
}
