package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.IBV_ACCESS_LOCAL_WRITE;
import static org.verbatim.verbs.raw.verbs_h_constants.IBV_ACCESS_REMOTE_READ;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.MemoryRegion;
import org.verbatim.verbs.ProtectionDomain;
import org.verbatim.verbs.SendRequest;

/**
 * Zero-length RDMA reads on a device that answers them wrongly ({@link
 * DeviceLimits#zeroLengthReadsAnswered} false: Soft-iWARP) or refuses them retransmitted ({@link
 * DeviceLimits#zeroLengthReadsReplayed} false: Soft-RoCE) go out as one-byte reads of a byte
 * each engine keeps for its peers, into a byte of its own. A zero-length read has no data to
 * fetch: what it gives (a flush, or a user's empty read) is its completion after every request
 * posted before it, which any read on the queue pair gives.
 *
 * <p>The peers learn each other's byte (address and remote key) when they connect; until a
 * peer's is known, its zero-length reads go out as zero-length reads with one empty sink entry
 * ({@link VerbsEngine#oneReadSink}).
 */
final class ReadTargets {
    /** The byte peers read, then the byte this engine's one-byte reads land in, a line apart. */
    private static final long SINK_OFFSET = 64;

    private final MemorySegment memory;
    private final int lkey;
    private final int rkey;
    private final long[] peerAddresses;
    private final int[] peerKeys;
    private final boolean[] known;

    /** Registers the two bytes with {@code pd} (in memory of {@code arena}) for a job of {@code size} ranks. */
    ReadTargets(ProtectionDomain pd, Arena arena, int size) {
        this.memory = arena.allocate(2 * SINK_OFFSET, 64);
        MemoryRegion mr = pd.register(memory, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
        this.lkey = mr.lkey();
        this.rkey = mr.rkey();
        this.peerAddresses = new long[size];
        this.peerKeys = new int[size];
        this.known = new boolean[size];
    }

    /** Address of the byte this engine's peers read. */
    long address() {
        return memory.address();
    }

    /** Remote key of the byte this engine's peers read. */
    int remoteKey() {
        return rkey;
    }

    /** {@code peer}'s byte, from its connection's private data. */
    void peer(int peer, long address, int remoteKey) {
        peerAddresses[peer] = address;
        peerKeys[peer] = remoteKey;
        known[peer] = true;
    }

    /** True once {@code peer}'s byte is known. */
    boolean knows(int peer) {
        return known[peer];
    }

    /**
     * Patches {@code wr} (operation already set to an RDMA read) as the one-byte read of {@code
     * peer}'s byte, or, while that is unknown, as a zero-length read of {@code remoteAddress} with
     * one empty sink entry.
     */
    void zeroLengthRead(SendRequest wr, int peer, long remoteAddress, long remoteKey) {
        if (known[peer]) {
            wr.entry(0, memory.address() + SINK_OFFSET, 1, lkey).entries(1)
                    .remote(peerAddresses[peer], peerKeys[peer]);
        } else {
            wr.entry(0, 0, 0, 0).entries(1).remote(remoteAddress, (int) remoteKey);
        }
    }
}
