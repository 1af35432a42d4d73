package org.verbatim.transport.verbs;

import static org.verbatim.verbs.raw.verbs_h_constants.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.spi.Access;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.WorkList;
import org.verbatim.verbs.SendRequest;

/**
 * The one-sided operations of one {@link VerbsEndpoint}, each a pre-built work request patched in
 * place: RDMA write, write with immediate and read of one segment or of a gather/scatter list
 * (one request with several entries), a list of them chained into one {@code ibv_post_send},
 * fetch-and-add and compare-and-swap, and flush (a zero-length RDMA read: its response leaves the
 * peer after every earlier write and atomic of the queue pair has been executed there). Every
 * one is signalled and completes to the runtime with its own work-request id and status.
 *
 * <p>Local memory the runtime did not register (a receive buffer as read target, say) is
 * registered through the cache for the operation's lifetime.
 */
final class RdmaOperations {
    private final VerbsEngine t;
    private final VerbsEndpoint ep;
    /** Single and gather/scatter requests, atomics and flush. */
    private final SendRequest one;
    /** The chain of a list post. */
    private final SendRequest[] chain;
    private final MemoryRegistration[] chainHolds;
    private final long[] chainIds;
    private final int[] chainLkeys;
    private final int[] chainFlags;
    /** What the last {@link #fill} patched in: the local key and the send flags (for the replay log). */
    private int lastLkey;
    private int lastFlags;

    RdmaOperations(VerbsEngine engine, VerbsEndpoint ep, Arena arena) {
        this.t = engine;
        this.ep = ep;
        this.one = new SendRequest(arena, engine.maxIov);
        this.chain = new SendRequest[Math.max(1, engine.maxListPost)];
        for (int i = 0; i < chain.length; i++) {
            chain[i] = new SendRequest(arena, 1);
        }
        this.chainHolds = new MemoryRegistration[chain.length];
        this.chainIds = new long[chain.length];
        this.chainLkeys = new int[chain.length];
        this.chainFlags = new int[chain.length];
    }

    /** Write, write with immediate or read of one local segment. */
    int single(int opcode, MemorySegment local, long remoteAddress, long remoteKey, int immediate, long wrId) {
        if (!ep.mayPost(1)) {
            return ep.refused();
        }
        boolean withImmediate = opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
        if (withImmediate && t.inBand) {
            throw new UnsupportedOperationException("rank " + ep.peer + " is reached over " + t.where
                    + ", which has no immediate data (WRITE_WITH_IMMEDIATE is not advertised)");
        }
        boolean read = opcode == IBV_WR_RDMA_READ;
        if (read && !ep.mayRead()) {
            return ep.retry();
        }
        if (withImmediate && !ep.takeReceiveCredit()) {
            return ep.retry();
        }
        MemoryRegistration held = fill(one, opcode, local, remoteAddress, remoteKey, immediate);
        long seq = ep.requests.next();
        one.id(seq);
        int rc = ep.qp.post(one);
        if (rc != 0) {
            release(held);
            if (withImmediate) {
                ep.returnReceiveCredit();
            }
            return t.postFailed(ep, rc);
        }
        ep.record(seq, OutstandingRequests.USER, -1, wrId, held, true, read);
        if (withImmediate) {
            ep.requests.tookCredit(seq);
        } else {
            long length = local.byteSize();
            ep.requests.replays.log(seq, opcode, lastFlags, local.address(), length == 0 ? -1 : (int) length,
                    lastLkey, remoteAddress, (int) remoteKey);
        }
        return PostStatus.OK;
    }

    /** Patches {@code wr} for one segment; returns a registration made for it, or null. */
    private MemoryRegistration fill(SendRequest wr, int opcode, MemorySegment local, long remoteAddress,
                                    long remoteKey, int immediate) {
        long length = local.byteSize();
        if (length > t.capabilities().maxRdma()) {
            throw new IllegalArgumentException("RDMA of " + length + " bytes exceeds maxRdma");
        }
        boolean read = opcode == IBV_WR_RDMA_READ;
        boolean inline = !read && length <= t.maxInline;
        int lkey = 0;
        MemoryRegistration held = null;
        if (length > 0 && !inline) {
            int needed = read ? t.readSinkAccess : 0;
            lkey = t.lkeyOrMinusOne(local, needed);
            if (lkey == -1) {
                held = t.register(local, Access.ALL);
                lkey = t.lkeyOrMinusOne(local, needed);
            }
        }
        lastLkey = lkey;
        lastFlags = IBV_SEND_SIGNALED | (inline ? IBV_SEND_INLINE : 0);
        if (length == 0 && read && (t.oneReadSink || t.readTargets != null)) {
            wr.operation(0, opcode, lastFlags);
            zeroLengthRead(wr, remoteAddress, remoteKey);
            return null;
        }
        wr.operation(0, opcode, lastFlags)
                .entry(0, local.address(), (int) length, lkey).entries(length == 0 ? 0 : 1)
                .remote(remoteAddress, (int) remoteKey);
        if (opcode == IBV_WR_RDMA_WRITE_WITH_IMM) {
            wr.immediate(immediate);
        }
        return held;
    }

    /** Write (with or without immediate) from a gather list, or read into a scatter list. */
    int vector(int opcode, IoVector local, long remoteAddress, long remoteKey, int immediate, long wrId) {
        int n = local.count();
        int limit = opcode == IBV_WR_RDMA_READ ? t.maxReadIov : t.maxIov;
        if (n > limit) {
            throw new IllegalArgumentException(n + " entries exceed maxIov " + limit + " of "
                    + (opcode == IBV_WR_RDMA_READ ? "a read's scatter list" : "a gather list") + " on " + t.where);
        }
        if (!local.allNative()) {
            throw new IllegalArgumentException("RDMA needs native memory in every entry");
        }
        long total = local.totalLength();
        if (total > t.capabilities().maxRdma()) {
            throw new IllegalArgumentException("RDMA of " + total + " bytes exceeds maxRdma");
        }
        if (!ep.mayPost(1)) {
            return ep.refused();
        }
        boolean withImmediate = opcode == IBV_WR_RDMA_WRITE_WITH_IMM;
        if (withImmediate && t.inBand) {
            throw new UnsupportedOperationException("rank " + ep.peer + " is reached over " + t.where
                    + ", which has no immediate data (WRITE_WITH_IMMEDIATE is not advertised)");
        }
        boolean read = opcode == IBV_WR_RDMA_READ;
        if (read && !ep.mayRead()) {
            return ep.retry();
        }
        if (withImmediate && !ep.takeReceiveCredit()) {
            return ep.retry();
        }
        boolean inline = !read && total <= t.maxInline;
        int needed = read ? t.readSinkAccess : 0;
        MemoryRegistration held = null;
        int used = 0;
        for (int i = 0; i < n; i++) {
            long length = local.length(i);
            if (length == 0) {
                continue; // a zero-length entry carries nothing; verbs would still check its key
            }
            long address = local.address(i);
            int lkey = 0;
            if (!inline) {
                lkey = t.lkeyOrMinusOne(address, length, needed);
                if (lkey == -1) {
                    held = Held.both(held, t.register(local.segment(i).asSlice(local.offset(i), length),
                            Access.ALL));
                    lkey = t.lkeyOrMinusOne(address, length, needed);
                }
            }
            one.entry(used++, address, (int) length, lkey);
        }
        long seq = ep.requests.next();
        one.operation(seq, opcode, IBV_SEND_SIGNALED | (inline && total > 0 ? IBV_SEND_INLINE : 0))
                .entries(used).remote(remoteAddress, (int) remoteKey);
        if (used == 0 && read && (t.oneReadSink || t.readTargets != null)) {
            zeroLengthRead(one, remoteAddress, remoteKey);
        }
        if (withImmediate) {
            one.immediate(immediate);
        }
        int rc = ep.qp.post(one);
        if (rc != 0) {
            release(held);
            if (withImmediate) {
                ep.returnReceiveCredit();
            }
            return t.postFailed(ep, rc);
        }
        ep.record(seq, OutstandingRequests.USER, -1, wrId, held, true, read);
        if (withImmediate) {
            ep.requests.tookCredit(seq);
        }
        return PostStatus.OK;
    }

    /**
     * Posts requests {@code from..} of {@code list} chained in one {@code ibv_post_send}: as many
     * as the send queue, the chain ({@code maxListPost}) and, for writes with immediate, the
     * receive credits allow. Returns how many were posted.
     */
    int list(WorkList list, int from) {
        int want = Math.min(list.count() - from, chain.length);
        if (want <= 0) {
            return 0;
        }
        if (!ep.mayPost(1)) {
            ep.refused();
            return 0;
        }
        int k = 0;
        int readsFree = t.capabilities().readsInFlight() - ep.requests.readsOutstanding();
        long seq0 = ep.requests.next();
        while (k < want && ep.requests.room(k + 1)) {
            int i = from + k;
            byte kind = list.kind(i);
            int opcode = switch (kind) {
                case WorkList.WRITE -> IBV_WR_RDMA_WRITE;
                case WorkList.WRITE_WITH_IMMEDIATE -> IBV_WR_RDMA_WRITE_WITH_IMM;
                case WorkList.READ -> IBV_WR_RDMA_READ;
                default -> throw new IllegalStateException("unknown work request kind " + kind);
            };
            if (opcode == IBV_WR_RDMA_READ) {
                if (readsFree == 0) {
                    break;
                }
                readsFree--;
            }
            if (opcode == IBV_WR_RDMA_WRITE_WITH_IMM && !ep.takeReceiveCredit()) {
                break;
            }
            SendRequest wr = chain[k];
            chainHolds[k] = fill(wr, opcode, list.local(i), list.remoteAddress(i), list.remoteKey(i),
                    list.immediate(i));
            wr.id(seq0 + k);
            chainIds[k] = list.wrId(i);
            chainLkeys[k] = lastLkey;
            chainFlags[k] = lastFlags;
            if (k > 0) {
                chain[k - 1].next(wr);
            }
            k++;
        }
        if (k == 0) {
            return 0;
        }
        chain[k - 1].next(null);
        int rc = ep.qp.post(chain[0]);
        int posted = k;
        if (rc != 0) {
            long bad = ep.qp.badRequest();
            posted = 0;
            while (posted < k && chain[posted].address() != bad) {
                posted++;
            }
            for (int j = posted; j < k; j++) {
                release(chainHolds[j]);
                if (list.kind(from + j) == WorkList.WRITE_WITH_IMMEDIATE) {
                    ep.returnReceiveCredit();
                }
            }
            t.postFailed(ep, rc);
        }
        for (int j = 0; j < posted; j++) {
            ep.record(seq0 + j, OutstandingRequests.USER, -1, chainIds[j], chainHolds[j], true,
                    list.kind(from + j) == WorkList.READ);
            int i = from + j;
            if (list.kind(i) == WorkList.WRITE_WITH_IMMEDIATE) {
                ep.requests.tookCredit(seq0 + j);
            } else {
                long length = list.local(i).byteSize();
                ep.requests.replays.log(seq0 + j, list.kind(i) == WorkList.READ ? IBV_WR_RDMA_READ : IBV_WR_RDMA_WRITE,
                        chainFlags[j], list.local(i).address(), length == 0 ? -1 : (int) length, chainLkeys[j],
                        list.remoteAddress(i), (int) list.remoteKey(i));
            }
        }
        for (int j = 0; j < k; j++) {
            chainHolds[j] = null;
        }
        return posted;
    }

    /** Fetch-and-add or compare-and-swap on the peer's 64-bit word; the old value lands in {@code result}. */
    int atomic(int opcode, MemorySegment result, long remoteAddress, long remoteKey, long compareAdd, long swap,
               long wrId) {
        if (!t.atomics) {
            throw new UnsupportedOperationException("rank " + ep.peer + " is reached over " + t.where
                    + ", which does not offer " + Capability.ATOMICS + " (check the transport's capabilities first)");
        }
        if (!result.isNative() || result.byteSize() < 8) {
            throw new IllegalArgumentException("an atomic's result needs 8 bytes of native memory, not " + result);
        }
        if (!ep.mayPost(1)) {
            return ep.refused();
        }
        if (!ep.mayRead()) {
            return ep.retry();
        }
        if ((remoteAddress & 7) != 0) {
            // Verbs atomics need a naturally aligned word; the device would put the queue pair in
            // error for it. Refuse this one operation instead, as the peer would.
            t.completeLater(wrId, CompletionStatus.REMOTE_OPERATION_ERROR);
            return PostStatus.OK;
        }
        MemorySegment word = result.asSlice(0, 8);
        int lkey = t.lkeyOrMinusOne(word, Access.LOCAL_WRITE);
        MemoryRegistration held = null;
        if (lkey == -1) {
            held = t.register(word, Access.ALL);
            lkey = t.lkeyOrMinusOne(word, Access.LOCAL_WRITE);
        }
        long seq = ep.requests.next();
        one.operation(seq, opcode, IBV_SEND_SIGNALED).entry(0, word.address(), 8, lkey).entries(1)
                .atomic(remoteAddress, (int) remoteKey, compareAdd, swap);
        int rc = ep.qp.post(one);
        if (rc != 0) {
            release(held);
            return t.postFailed(ep, rc);
        }
        ep.record(seq, OutstandingRequests.USER, -1, wrId, held, true, true);
        return PostStatus.OK;
    }

    /**
     * Flush: a zero-length RDMA read (no address, no key: C9-88 exempts zero-length operations
     * from the checks). RC executes a read after every request posted before it, so its
     * completion means earlier writes and atomics are in the peer's memory.
     */
    int flush(long wrId) {
        if (!ep.mayPost(1)) {
            return ep.refused();
        }
        if (!ep.mayRead()) {
            return ep.retry();
        }
        long seq = ep.requests.next();
        one.operation(seq, IBV_WR_RDMA_READ, IBV_SEND_SIGNALED).entries(0).remote(0, 0);
        if (t.oneReadSink || t.readTargets != null) {
            zeroLengthRead(one, 0, 0);
        }
        int rc = ep.qp.post(one);
        if (rc != 0) {
            return t.postFailed(ep, rc);
        }
        ep.record(seq, OutstandingRequests.USER, -1, wrId, null, true, true);
        ep.requests.replays.log(seq, IBV_WR_RDMA_READ, IBV_SEND_SIGNALED, 0, -1, 0, 0, 0);
        return PostStatus.OK;
    }

    /**
     * Patches {@code wr}, an RDMA read of nothing, for this device: a one-byte read of the peer's
     * {@link ReadTargets} byte where empty reads are answered wrongly, else one empty sink entry
     * ({@link VerbsEngine#oneReadSink}; the device checks no key for it).
     */
    private void zeroLengthRead(SendRequest wr, long remoteAddress, long remoteKey) {
        if (t.readTargets != null) {
            t.readTargets.zeroLengthRead(wr, ep.peer, remoteAddress, remoteKey);
        } else {
            wr.entry(0, 0, 0, 0).entries(1).remote(remoteAddress, (int) remoteKey);
        }
    }

    private static void release(MemoryRegistration held) {
        if (held != null) {
            held.close();
        }
    }

    /** Registrations made for one request's entries, closed together when it completes. */
    private static final class Held implements MemoryRegistration {
        private final MemoryRegistration first;
        private final MemoryRegistration second;

        private Held(MemoryRegistration first, MemoryRegistration second) {
            this.first = first;
            this.second = second;
        }

        static MemoryRegistration both(MemoryRegistration held, MemoryRegistration added) {
            return held == null ? added : new Held(held, added);
        }

        @Override
        public MemorySegment segment() {
            return first.segment();
        }

        @Override
        public long remoteKey() {
            return first.remoteKey();
        }

        @Override
        public void close() {
            first.close();
            second.close();
        }
    }
}
