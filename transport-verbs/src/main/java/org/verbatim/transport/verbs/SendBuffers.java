package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.IBV_ACCESS_LOCAL_WRITE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.MemoryRegion;
import org.verbatim.verbs.ProtectionDomain;

/**
 * Registered send buffers for eager messages too large to send inline, shared by all peers: a
 * stack of free indices, no allocation per message. A buffer comes back when the signalled send
 * that carried it completes.
 */
final class SendBuffers {
    private final MemorySegment memory;
    private final MemorySegment[] views;
    private final int lkey;
    private final int[] free;
    private int top;

    SendBuffers(ProtectionDomain pd, Arena arena, int count, int bufferSize) {
        memory = arena.allocate((long) count * bufferSize, 4096);
        MemoryRegion mr = pd.register(memory, IBV_ACCESS_LOCAL_WRITE);
        lkey = mr.lkey();
        views = new MemorySegment[count];
        free = new int[count];
        for (int i = 0; i < count; i++) {
            views[i] = memory.asSlice((long) i * bufferSize, bufferSize);
            free[i] = count - 1 - i;
        }
        top = count;
    }

    /** A free buffer's index, or -1. */
    int take() {
        return top == 0 ? -1 : free[--top];
    }

    void give(int index) {
        free[top++] = index;
    }

    MemorySegment segment(int index) {
        return views[index];
    }

    int lkey() {
        return lkey;
    }

    long bytes() {
        return memory.byteSize();
    }

    int available() {
        return top;
    }
}
