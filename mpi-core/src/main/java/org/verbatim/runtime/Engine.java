package org.verbatim.runtime;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.verbatim.runtime.base.EngineLock;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.runtime.ext.CompletionCallback;
import org.verbatim.runtime.ext.Dispatch;
import org.verbatim.runtime.ext.ExtensionContext;
import org.verbatim.runtime.ext.ImmediateHandler;
import org.verbatim.runtime.ext.MessageHandler;
import org.verbatim.runtime.ext.PlacementHandler;
import org.verbatim.runtime.ext.Retryable;
import org.verbatim.runtime.p2p.LayoutSchemes;
import org.verbatim.runtime.p2p.PointToPoint;
import org.verbatim.runtime.p2p.ProtocolContext;
import org.verbatim.runtime.p2p.RendezvousPolicy;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.Transport;

/**
 * The progress engine of one process and its lifecycle: the one dispatch point (self, shm,
 * network per peer), the registry that routes what transports deliver (message kinds,
 * immediate ranges, tracked completions: {@link Dispatch}), the one pending queue, the pollers
 * of nonblocking collectives, and the idle strategy with its {@link Waiter}. The point-to-point
 * protocols live in {@link PointToPoint} and reach the engine only as a {@link ProtocolContext};
 * extension modules reach it as an {@link ExtensionContext}.
 *
 * <p>Everything that touches protocol state runs under {@link EngineLock}: a real lock only at
 * MPI_THREAD_MULTIPLE. Waiting threads release it between progress passes, so several threads
 * can wait at once.
 */
public final class Engine implements CompletionHandler, Dispatch, ProtocolContext,
        ExtensionContext {
    public static final int ANY_SOURCE = PointToPoint.ANY_SOURCE;
    public static final int ANY_TAG = PointToPoint.ANY_TAG;

    private final int worldRank;
    private final int worldSize;
    private final Map<String, String> config;
    private List<Transport> transports = List.of();
    /** {@link #transports} as an array for {@link #progressLocked}. */
    private Transport[] progressOrder = new Transport[0];
    private final Transport[] transportOf;
    private final RequestTable table = new RequestTable();
    private final StagingPool pool = new StagingPool();
    private final PendingQueue pending;
    private final EngineLock lock;
    private final IdleStrategy idle;
    private Waiter waiter;
    private final Profiler profiler;
    private final boolean multiThreaded;
    private final PointToPoint p2p;
    private volatile String fatal;

    private final HandlerRegistry handlers = new HandlerRegistry();
    /** By kind: the handlers that receive large messages straight into place (stream transports). */
    private final PlacementHandler[] placers = new PlacementHandler[256];
    /** {@link #preferKind}: the kind most messages carry (-1: none) and its handler. */
    private int preferredKind = -1;
    private MessageHandler preferredHandler;

    public Engine(int worldRank, int worldSize, long eagerLimit,
                  int maxReadsInFlight, int threadLevel, IdleStrategy idle, Profiler profiler,
                  boolean protoInfo) {
        this(worldRank, worldSize, eagerLimit, maxReadsInFlight, threadLevel, idle, profiler,
                protoInfo, RendezvousPolicy.auto(), Map.of());
    }

    Engine(int worldRank, int worldSize, long eagerLimit, int maxReadsInFlight, int threadLevel,
           IdleStrategy idle, Profiler profiler, boolean protoInfo, RendezvousPolicy rendezvous,
           Map<String, String> config) {
        this.worldRank = worldRank;
        this.worldSize = worldSize;
        this.config = config;
        // world ranks, then the peers of other worlds (connect/accept, spawn) from worldSize up
        int peerCapacity = worldSize + org.verbatim.spi.DynamicPeers.MAX_ADDED;
        this.transportOf = new Transport[peerCapacity];
        this.pending = new PendingQueue(peerCapacity);
        this.lock = EngineLock.forThreadLevel(threadLevel);
        this.idle = idle;
        this.profiler = profiler;
        this.multiThreaded = threadLevel >= 3;
        this.p2p = new PointToPoint(this, peerCapacity, eagerLimit, maxReadsInFlight, rendezvous,
                layoutSchemes(config), protoInfo, multiThreaded);
    }

    /** verbatim.core.datatype-scheme and datatype-min-block. */
    private static LayoutSchemes layoutSchemes(Map<String, String> config) {
        if (config == null) {
            return LayoutSchemes.auto();
        }
        String min = CoreSettings.DATATYPE_MIN_BLOCK.get(config).trim();
        long minBlock;
        try {
            minBlock = min.equalsIgnoreCase("auto") ? LayoutSchemes.TRANSPORT_DEFAULT
                    : CoreSettings.DATATYPE_MIN_BLOCK.getSize(config);
        } catch (IllegalArgumentException e) {
            throw new MpiError(ErrorClass.ERR_ARG, CoreSettings.DATATYPE_MIN_BLOCK.name()
                    + ": expected auto or a size in bytes (such as 256 or 4k), not '" + min + "'");
        }
        long poolBytes;
        long segmentBytes;
        long fragmentLimit;
        try {
            poolBytes = CoreSettings.DATATYPE_POOL.getSize(config);
            segmentBytes = CoreSettings.DATATYPE_SEGMENT.getSize(config);
            fragmentLimit = CoreSettings.DATATYPE_FRAGMENT_LIMIT.getSize(config);
        } catch (IllegalArgumentException e) {
            throw new MpiError(ErrorClass.ERR_ARG, CoreSettings.DATATYPE_POOL.name() + ", "
                    + CoreSettings.DATATYPE_SEGMENT.name() + " and "
                    + CoreSettings.DATATYPE_FRAGMENT_LIMIT.name() + ": expected sizes in bytes (such as "
                    + "4m or 128k): " + e.getMessage());
        }
        return LayoutSchemes.parse(CoreSettings.DATATYPE_SCHEME.get(config), minBlock, poolBytes,
                segmentBytes, CoreSettings.DATATYPE_SCHEME.name())
                .withListPost(CoreSettings.DATATYPE_LIST_POST.getBoolean(config))
                .withFragmentLimit(fragmentLimit);
    }

    /**
     * Sets the opened transports in dispatch order (self first). They were opened with this
     * engine as their completion handler.
     */
    public void attach(List<Transport> opened) {
        this.transports = List.copyOf(opened);
        this.progressOrder = transports.toArray(new Transport[0]);
        if (waiter != null) {
            waiter.close();
        }
        this.waiter = new Waiter(transports, multiThreaded);
    }

    public List<Transport> transports() {
        return transports;
    }

    /** MPI point-to-point: sends, receives, probes. */
    public PointToPoint p2p() {
        return p2p;
    }

    @Override
    public int worldRank() {
        return worldRank;
    }

    @Override
    public int worldSize() {
        return worldSize;
    }

    @Override
    public Map<String, String> config() {
        return config;
    }

    public IdleStrategy idleStrategy() {
        return idle;
    }

    // ------------------------------------------------------------------ the dispatch point

    @Override
    public Transport transportFor(int world) {
        Transport t = transportOf[world];
        if (t == null) {
            for (Transport candidate : transports) {
                if (candidate.reaches(world)) {
                    t = candidate;
                    break;
                }
            }
            if (t == null) {
                throw new MpiError(ErrorClass.ERR_INTERN, "no transport reaches rank " + world
                        + " (opened: " + transports.stream().map(Transport::name).toList() + ")");
            }
            transportOf[world] = t;
        }
        return t;
    }

    @Override
    public Transport transport(int world) {
        return transportFor(world);
    }

    @Override
    public Endpoint endpoint(int world) {
        return transportFor(world).endpoint(world);
    }

    // ------------------------------------------------------------------ registry

    @Override
    public Dispatch dispatch() {
        return this;
    }

    @Override
    public void registerKind(int kind, String owner, MessageHandler handler) {
        handlers.registerKind(kind, owner, handler);
    }

    @Override
    public void registerPlacement(int kind, PlacementHandler handler) {
        if (kind <= 0 || kind > Dispatch.LAST_EXTENSION_KIND || handlers.handler(kind) == null
                || placers[kind] != null) {
            throw new IllegalArgumentException("kind " + kind + " is not registered, or is placed already");
        }
        placers[kind] = handler;
    }

    @Override
    public int allocateKind(String owner, MessageHandler handler) {
        return handlers.allocateKind(owner, handler);
    }

    @Override
    public void preferKind(int kind) {
        MessageHandler h = kind > 0 && kind <= Dispatch.LAST_EXTENSION_KIND ? handlers.handler(kind) : null;
        if (h == null) {
            throw new IllegalArgumentException("message kind " + kind + " has no handler to prefer");
        }
        preferredHandler = h;
        preferredKind = kind;
    }

    @Override
    public void registerImmediates(int value, int mask, String owner, ImmediateHandler handler) {
        handlers.registerImmediates(value, mask, owner, handler);
    }

    @Override
    public long track(CompletionCallback callback) {
        return table.add(callback);
    }

    @Override
    public void untrack(long wrId) {
        table.remove(wrId);
    }

    @Override
    public void pending(Retryable work) {
        pending.add(work);
    }

    @Override
    public int pendingFor(int world) {
        return pending.orderedFor(world);
    }

    // ------------------------------------------------------------------ what transports deliver

    @Override
    public void onReceive(int source, MemorySegment m) {
        onReceive(source, m, 0, m.byteSize());
    }

    @Override
    public void onReceive(int source, MemorySegment m, long at, long size) {
        int kind = handlers.kindOf(m, at);
        if (kind == preferredKind) {
            preferredHandler.onMessage(source, m, at, size); // one handler class: bound here
            return;
        }
        MessageHandler h = handlers.handler(kind);
        if (h == null) {
            throw fail("rank " + worldRank + ": message of unknown kind " + kind + " ("
                    + size + " bytes) from rank " + source + ": no protocol registered for it");
        }
        h.onMessage(source, m, at, size);
    }

    @Override
    public MemorySegment placement(int source, MemorySegment head, long at, long headLength,
                                   long length) {
        PlacementHandler h = placers[handlers.kindOf(head, at) & 0xFF];
        return h == null ? null : h.placement(source, head, at, headLength, length);
    }

    @Override
    public void placed(int source, MemorySegment head, long at, long length) {
        PlacementHandler h = placers[handlers.kindOf(head, at) & 0xFF];
        if (h == null) {
            throw fail("rank " + worldRank + ": a placed message of kind " + handlers.kindOf(head, at)
                    + " from rank " + source + ", which nobody places");
        }
        h.placed(source, head, at, length);
    }

    @Override
    public void onImmediate(int source, int immediate) {
        ImmediateHandler h = handlers.handlerOf(immediate);
        if (h != null) {
            h.onImmediate(source, immediate);
            return;
        }
        throw fail("rank " + worldRank + ": write-with-immediate 0x"
                + Integer.toHexString(immediate) + " from rank " + source
                + " is in no registered range");
    }

    @Override
    public void onComplete(long wrId, int status) {
        if (table.get(wrId) instanceof CompletionCallback cb) {
            cb.onComplete(wrId, status);
            return;
        }
        throw fail("rank " + worldRank + ": completion (" + CompletionStatus.describe(status)
                + ") of work request 0x" + Long.toHexString(wrId) + ", which nobody tracks");
    }

    /** Names peers in failure messages: world ranks as "rank N", others by their job and rank. */
    private java.util.function.IntFunction<String> peerNames = p -> "rank " + p;

    /** How failure messages name peers of other worlds (set by MpiProcess's peer table). */
    void peerNames(java.util.function.IntFunction<String> names) {
        this.peerNames = names;
    }

    @Override
    public void onPeerFailure(int peer, String reason) {
        throw fail(peerNames.apply(peer) + " failed: " + reason);
    }

    // ------------------------------------------------------------------ progress

    @Override
    public void lockRuntime() {
        lock.lock();
    }

    @Override
    public void unlockRuntime() {
        lock.unlock();
    }

    /** One progress pass; returns the work done. */
    public int progress() {
        lock.lock();
        try {
            return progressLocked();
        } finally {
            lock.unlock();
        }
    }

    /**
     * One progress pass with the runtime lock held. The first two transports (self, then the one
     * that serves this host: shm in most jobs) are progressed from call sites of their own, so
     * that each site sees one transport class and the JIT inlines it; a single loop over all of
     * them would be a megamorphic call (self, shm and tcp on one host) in every pass.
     */
    @Override
    public int progressLocked() {
        Transport[] order = progressOrder;
        int n = order.length;
        int work = 0;
        if (n > 0) {
            work = order[0].progress();
            if (n > 1) {
                work += order[1].progress();
                for (int i = 2; i < n; i++) {
                    work += order[i].progress();
                }
            }
        }
        if (!pending.isEmpty()) {
            work += pending.retryAll();
        }
        if (pollerCount > 0) {
            work += runPollers();
        }
        return work;
    }

    /** Work advanced by the progress engine itself (nonblocking collective schedules). */
    public interface Poller extends ExtensionContext.Poller {
    }

    private ExtensionContext.Poller[] pollers = new ExtensionContext.Poller[4];
    private int pollerCount;

    /** Adds a poller; it runs on every progress pass until it reports that it is finished. */
    @Override
    public void addPoller(ExtensionContext.Poller p) {
        lock.lock();
        try {
            if (pollerCount == pollers.length) {
                pollers = Arrays.copyOf(pollers, pollerCount * 2);
            }
            pollers[pollerCount++] = p;
        } finally {
            lock.unlock();
        }
    }

    private int runPollers() {
        int work = 0;
        for (int i = 0; i < pollerCount; ) {
            int w = pollers[i].doWork();
            if (w < 0) {
                System.arraycopy(pollers, i + 1, pollers, i, pollerCount - i - 1);
                pollers[--pollerCount] = null;
                work++;
            } else {
                work += w;
                i++;
            }
        }
        return work;
    }

    /** Makes progress until {@code r} completes (or the job fails). */
    public void await(RequestState r) {
        int count = 0;
        while (!r.isComplete()) {
            checkFatal();
            if (progress() > 0) {
                count = 0;
            } else if (!r.isComplete()) {
                count = idle.idle(count, waiter);
            }
        }
    }

    /** Makes progress until {@code done} is true. */
    public void awaitCondition(java.util.function.BooleanSupplier done) {
        int count = 0;
        while (!done.getAsBoolean()) {
            checkFatal();
            if (progress() > 0) {
                count = 0;
            } else {
                count = idle.idle(count, waiter);
            }
        }
    }

    /** One step of the idle strategy; {@code count} is the caller's idle counter. */
    public int idle(int count) {
        return idle.idle(count, waiter);
    }

    // ------------------------------------------------------------------ failure

    /** Marks the job failed; every waiting call ends with this message. */
    @Override
    public MpiError fail(String message) {
        if (fatal == null) {
            fatal = message;
        }
        throw new MpiError(ErrorClass.ERR_PROC_ABORTED, message);
    }

    public String fatalMessage() {
        return fatal;
    }

    @Override
    public void checkFatal() {
        String f = fatal;
        if (f != null) {
            throw new MpiError(ErrorClass.ERR_PROC_ABORTED, f);
        }
    }

    // ------------------------------------------------------------------ resources

    @Override
    public RequestTable table() {
        return table;
    }

    @Override
    public StagingPool pool() {
        return pool;
    }

    @Override
    public Profiler profiler() {
        return profiler;
    }

    @Override
    public EngineLock lock() {
        return lock;
    }

    /**
     * Native scratch memory from the engine's pool (collective temporaries): native so that
     * large transfers out of it and into it are single-copy. Not zeroed. Give it back with
     * {@link #giveBack}.
     */
    public MemorySegment borrow(long bytes) {
        lock.lock();
        try {
            MemorySegment s = pool.acquire(Math.max(1, bytes)).asSlice(0, bytes);
            scratchLent++;
            return s;
        } finally {
            lock.unlock();
        }
    }

    public void giveBack(MemorySegment scratch) {
        lock.lock();
        try {
            pool.release(MemorySegment.ofAddress(scratch.address())
                    .reinterpret(Math.max(1, scratch.byteSize())));
            scratchLent--;
        } finally {
            lock.unlock();
        }
    }

    /** Scratch buffers {@link #borrow borrowed} and not given back yet (tests: none leak). */
    public long scratchLent() {
        lock.lock();
        try {
            return scratchLent;
        } finally {
            lock.unlock();
        }
    }

    private long scratchLent;

    public long communicationMemory() {
        long bytes = pool.allocatedBytes();
        if (transports != null) {
            for (Transport t : transports) {
                bytes += t.communicationMemory();
            }
        }
        return bytes;
    }

    /** Frees the engine's own memory; transports are closed by their owner. */
    public void close() {
        p2p.close();
        pool.close();
        if (waiter != null) {
            waiter.close();
        }
    }
}
