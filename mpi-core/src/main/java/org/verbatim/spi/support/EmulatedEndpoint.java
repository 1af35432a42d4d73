package org.verbatim.spi.support;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.WorkList;

/**
 * A send-only endpoint with RDMA emulated on top ({@link RdmaEmulation#endpoint}): write,
 * write-with-immediate, read, gather write, scatter read, fetch-and-add, compare-and-swap,
 * {@link #accumulate} and flush, all carried as active messages by the underlying
 * {@link Endpoint#send}. Every operation completes through the transport's handler with
 * {@code onComplete(wrId, status)} only after the target answered, so the target has to make
 * progress.
 *
 * <p>Posting returns {@link PostStatus#RETRY} only when the engine's operation table is full;
 * otherwise an operation the underlying endpoint cannot take now waits in this endpoint's
 * backlog, which {@link RdmaEmulation#progress()} pumps. Plain sends keep their order behind the
 * backlog: {@link #send} returns RETRY while emulation messages are still waiting, so a message
 * posted after a write arrives after the write's data, as on a reliable-connected queue pair.
 */
public final class EmulatedEndpoint implements Endpoint {
    static final int FLUSHES = 64;

    private final RdmaEmulation engine;
    private final Endpoint raw;
    /** The backlog, in posting order. */
    EmulationOp head;
    EmulationOp tail;
    /** True while in the engine's pump list. */
    boolean listed;
    /** Initiator operations posted and completed (for flush). */
    long posted;
    long completed;
    private final long[] flushWrIds = new long[FLUSHES];
    private final long[] flushTargets = new long[FLUSHES];
    private int flushHead;
    private int flushCount;

    EmulatedEndpoint(RdmaEmulation engine, Endpoint raw) {
        this.engine = engine;
        this.raw = raw;
    }

    @Override
    public int peer() {
        return raw.peer();
    }

    /** The underlying send-only endpoint. */
    public Endpoint raw() {
        return raw;
    }

    /**
     * Eager send through the underlying endpoint, behind any waiting emulation messages. A message
     * that begins with a byte of the reserved range ({@link EmulationWire#reserved}) goes out
     * behind one escape byte, so it must be at most maxEager - 1 bytes, which is what
     * {@link EmulatedCapabilities} advertises.
     */
    @Override
    public int send(MemorySegment header, MemorySegment payload) {
        if (head != null && !engine.pump(this)) {
            return PostStatus.RETRY;
        }
        if (EmulationWire.reserved(EmulationSender.firstByte(header, payload))) {
            return engine.sendEscaped(raw, header, payload);
        }
        return raw.send(header, payload);
    }

    @Override
    public int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return writeOp(local, remoteAddress, remoteKey, false, 0, wrId);
    }

    @Override
    public int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey,
                                  int immediate, long wrId) {
        return writeOp(local, remoteAddress, remoteKey, true, immediate, wrId);
    }

    @Override
    public int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        EmulationOp op = engine.takeOp();
        if (op == null) {
            return PostStatus.RETRY;
        }
        op.addEntry(local, 0, local.byteSize());
        return post(op, EmulationOp.READ, remoteAddress, remoteKey, wrId);
    }

    @Override
    public int writeGather(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        return gatherOp(local, remoteAddress, remoteKey, false, 0, wrId);
    }

    @Override
    public int writeGatherWithImmediate(IoVector local, long remoteAddress, long remoteKey,
                                        int immediate, long wrId) {
        return gatherOp(local, remoteAddress, remoteKey, true, immediate, wrId);
    }

    @Override
    public int readScatter(IoVector local, long remoteAddress, long remoteKey, long wrId) {
        checkEntries(local);
        EmulationOp op = engine.takeOp();
        if (op == null) {
            return PostStatus.RETRY;
        }
        for (int i = 0; i < local.count(); i++) {
            op.addEntry(local.segment(i), local.offset(i), local.length(i));
        }
        return post(op, EmulationOp.READ, remoteAddress, remoteKey, wrId);
    }

    /** One by one through the single-request calls (no native list post underneath). */
    @Override
    public int postList(WorkList list, int from) {
        return list.postEach(this, from);
    }

    @Override
    public int fetchAndAdd(MemorySegment result, long remoteAddress, long remoteKey, long add,
                           long wrId) {
        return atomicOp(result, remoteAddress, remoteKey, EmulationWire.ATOMIC_FETCH_AND_ADD, add,
                0, wrId);
    }

    @Override
    public int compareAndSwap(MemorySegment result, long remoteAddress, long remoteKey,
                              long expected, long desired, long wrId) {
        return atomicOp(result, remoteAddress, remoteKey, EmulationWire.ATOMIC_COMPARE_AND_SWAP,
                expected, desired, wrId);
    }

    /**
     * Accumulate: the target combines the elements of {@code local} into its memory at
     * {@code remoteAddress}, {@code t = t op x} element by element, atomically with respect to
     * other emulated accumulates and atomics on that target. Needs
     * {@link org.verbatim.spi.Access#REMOTE_ATOMIC} on the target registration. Completes once
     * the target has applied all of it. {@code local} must hold whole elements, and
     * {@code op} must be defined on {@code kind} (IllegalArgumentException otherwise).
     */
    public int accumulate(MemorySegment local, long remoteAddress, long remoteKey,
                          ElementKind kind, ReduceOp op, long wrId) {
        if (!op.supports(kind)) {
            throw new IllegalArgumentException(op + " is not defined on " + kind);
        }
        if (local.byteSize() % kind.size() != 0) {
            throw new IllegalArgumentException(local.byteSize() + " bytes are not whole "
                    + kind + " elements");
        }
        EmulationOp o = engine.takeOp();
        if (o == null) {
            return PostStatus.RETRY;
        }
        o.addEntry(local, 0, local.byteSize());
        o.arg = kind.code();
        o.arg2 = op.code();
        return post(o, EmulationOp.ACCUMULATE, remoteAddress, remoteKey, wrId);
    }

    /**
     * Completes once every operation posted earlier on this endpoint has completed (its target
     * acknowledged it). Completions of one endpoint arrive in posting order, since the target
     * answers in message order, so a count is enough.
     */
    @Override
    public int flush(long wrId) {
        if (posted == completed) {
            return engine.completeLater(wrId) ? PostStatus.OK : PostStatus.RETRY;
        }
        if (flushCount == FLUSHES) {
            return PostStatus.RETRY;
        }
        int i = (flushHead + flushCount++) % FLUSHES;
        flushWrIds[i] = wrId;
        flushTargets[i] = posted;
        return PostStatus.OK;
    }

    /** An initiator operation of this endpoint completed: deliver the flushes it released. */
    void operationCompleted() {
        completed++;
        while (flushCount > 0 && flushTargets[flushHead] <= completed) {
            long wrId = flushWrIds[flushHead];
            flushHead = (flushHead + 1) % FLUSHES;
            flushCount--;
            engine.downstream().onComplete(wrId, org.verbatim.spi.CompletionStatus.OK);
        }
    }

    /** The peer is gone: forgets the flushes (the engine completes them with the failure). */
    int drainFlushes(long[] into) {
        int n = 0;
        while (flushCount > 0) {
            into[n++] = flushWrIds[flushHead];
            flushHead = (flushHead + 1) % FLUSHES;
            flushCount--;
        }
        return n;
    }

    private int writeOp(MemorySegment local, long remoteAddress, long remoteKey,
                        boolean withImmediate, int immediate, long wrId) {
        EmulationOp op = engine.takeOp();
        if (op == null) {
            return PostStatus.RETRY;
        }
        op.addEntry(local, 0, local.byteSize());
        op.withImmediate = withImmediate;
        op.immediate = immediate;
        return post(op, EmulationOp.WRITE, remoteAddress, remoteKey, wrId);
    }

    private int gatherOp(IoVector local, long remoteAddress, long remoteKey,
                         boolean withImmediate, int immediate, long wrId) {
        checkEntries(local);
        EmulationOp op = engine.takeOp();
        if (op == null) {
            return PostStatus.RETRY;
        }
        for (int i = 0; i < local.count(); i++) {
            op.addEntry(local.segment(i), local.offset(i), local.length(i));
        }
        op.withImmediate = withImmediate;
        op.immediate = immediate;
        return post(op, EmulationOp.WRITE, remoteAddress, remoteKey, wrId);
    }

    private int atomicOp(MemorySegment result, long remoteAddress, long remoteKey, byte atomic,
                         long operand, long operand2, long wrId) {
        if (result.byteSize() < Long.BYTES) {
            throw new IllegalArgumentException("an atomic's result needs 8 bytes, not "
                    + result.byteSize());
        }
        EmulationOp op = engine.takeOp();
        if (op == null) {
            return PostStatus.RETRY;
        }
        op.addEntry(result, 0, Long.BYTES);
        op.arg = atomic;
        op.operand = operand;
        op.operand2 = operand2;
        return post(op, EmulationOp.ATOMIC, remoteAddress, remoteKey, wrId);
    }

    private int post(EmulationOp op, byte kind, long remoteAddress, long remoteKey, long wrId) {
        op.kind = kind;
        op.endpoint = this;
        op.remoteAddress = remoteAddress;
        op.remoteKey = remoteKey;
        op.wrId = wrId;
        op.startCursor();
        posted++;
        engine.enqueue(this, op);
        return PostStatus.OK;
    }

    private void checkEntries(IoVector list) {
        if (list.count() > engine.maxIov()) {
            throw new IllegalArgumentException(list.count() + " entries, more than the "
                    + engine.maxIov() + " the emulation takes");
        }
    }
}
