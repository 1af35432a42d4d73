package org.verbatim.runtime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.Transport;

/**
 * The point-to-point engine of one process: the one dispatch point (self, shm, network per peer),
 * eager and rendezvous protocols, MPI matching, and the progress loop with its idle strategy.
 *
 * <p>Everything that touches protocol state runs under {@link EngineLock}: a real lock only at
 * MPI_THREAD_MULTIPLE. Waiting threads release it between progress passes, so several threads
 * can wait at once.
 */
public final class Engine implements CompletionHandler {
    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;

    private final int worldRank;
    private List<Transport> transports = List.of();
    private final PeerState[] peers;
    private final long eagerLimit;
    private final int maxReadsInFlight;
    private final MatchQueues queues = new MatchQueues();
    private final RequestTable table = new RequestTable();
    private final StagingPool pool = new StagingPool();
    private final RendezvousPolicy rendezvousPolicy;
    private final PutRendezvous puts;
    private final Arena arena = Arena.ofShared();
    /** Header scratch: used only under the lock, so one is enough. */
    private final MemorySegment header = arena.allocate(WireHeader.RTS_SIZE, 8);
    private final MemorySegment baseHeader = header.asSlice(0, WireHeader.BASE_SIZE);
    private final MemorySegment rtsHeader = header.asSlice(0, WireHeader.RTS_SIZE);
    private final MemorySegment empty = MemorySegment.ofArray(new byte[0]);
    private final EngineLock lock;
    private final IdleStrategy idle;
    private final Profiler profiler;
    private final boolean protoInfo;
    private final boolean multiThreaded;
    private final RecvOp scratchReceive = new RecvOp(0, 0, 0, null, null);
    /** Receives with a rendezvous read that the transport refused for now. */
    private RecvOp[] readRetry = new RecvOp[8];
    private int readRetryCount;
    private volatile String fatal;

    public Engine(int worldRank, int worldSize, long eagerLimit,
                  int maxReadsInFlight, int threadLevel, IdleStrategy idle, Profiler profiler,
                  boolean protoInfo) {
        this(worldRank, worldSize, eagerLimit, maxReadsInFlight, threadLevel, idle, profiler,
                protoInfo, RendezvousPolicy.auto());
    }

    Engine(int worldRank, int worldSize, long eagerLimit, int maxReadsInFlight, int threadLevel,
           IdleStrategy idle, Profiler profiler, boolean protoInfo, RendezvousPolicy rendezvous) {
        this.worldRank = worldRank;
        this.rendezvousPolicy = rendezvous;
        this.puts = new PutRendezvous(this, table, pool, maxReadsInFlight);
        this.peers = new PeerState[worldSize];
        this.eagerLimit = eagerLimit;
        this.maxReadsInFlight = maxReadsInFlight;
        this.lock = EngineLock.forThreadLevel(threadLevel);
        this.idle = idle;
        this.profiler = profiler;
        this.protoInfo = protoInfo;
        this.multiThreaded = threadLevel >= 3;
    }

    /**
     * Sets the opened transports in dispatch order (self first). They were opened with this
     * engine as their completion handler.
     */
    public void attach(List<Transport> opened) {
        this.transports = List.copyOf(opened);
    }

    public List<Transport> transports() {
        return transports;
    }

    public int worldRank() {
        return worldRank;
    }

    public IdleStrategy idleStrategy() {
        return idle;
    }

    // ------------------------------------------------------------------ dispatch

    private PeerState peer(int world) {
        PeerState p = peers[world];
        if (p == null) {
            p = connect(world);
        }
        return p;
    }

    private PeerState connect(int world) {
        for (Transport t : transports) {
            if (t.reaches(world)) {
                PeerState p = new PeerState(world, t, eagerLimit, rendezvousPolicy);
                peers[world] = p;
                if (protoInfo) {
                    System.err.println(describe(p));
                }
                return p;
            }
        }
        throw new MpiError(ErrorClass.ERR_INTERN, "no transport reaches rank " + world
                + " (opened: " + transports.stream().map(Transport::name).toList() + ")");
    }

    /** The protocol selection for one peer, as verbatim.core.proto-info prints it. */
    private String describe(PeerState p) {
        var caps = p.transport.capabilities();
        String get = p.rendezvous == PeerState.Rendezvous.RGET
                ? "RGET" + (caps.hasNativeRdmaRead() ? "" : " (emulated read)") : "none";
        String put = "RPUT" + (caps.hasNativeRdmaWrite() ? "" : " (emulated write)")
                + (caps.has(org.verbatim.spi.Capability.WRITE_WITH_IMMEDIATE)
                        ? " closed by write-with-immediate" : " closed by FIN");
        String rdv = p.putFrom == RendezvousPolicy.NEVER ? get
                : p.putFrom <= p.eagerLimit + 1 ? put
                : get + " below " + p.putFrom + " B, " + put + " from there";
        return "verbatim: rank " + worldRank + " -> rank " + p.world + ": transport "
                + p.transport.name() + ", eager <= " + p.eagerLimit + " B, rendezvous " + rdv
                + " in chunks of " + p.maxRdma + " B, flags " + caps.flags();
    }

    /** The name of the transport used for {@code world} (connecting if needed). */
    public String transportFor(int world) {
        lock.lock();
        try {
            return peer(world).transport.name();
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ send side

    /**
     * Starts a send of {@code data} (exactly the message bytes) to world rank {@code dest}.
     * {@code myCommRank} and {@code context} identify the sender and communicator for matching.
     */
    public SendOp send(int context, int myCommRank, int dest, int tag, MemorySegment data,
                       Object keepAlive, Mode mode) {
        checkFatal();
        lock.lock();
        try {
            PeerState p = peer(dest);
            SendOp s = new SendOp(p, context, myCommRank, tag, data, keepAlive,
                    mode == Mode.SYNCHRONOUS);
            s.rendezvous = data.byteSize() > p.eagerLimit;
            profiler.messageSent(data.byteSize());
            if (s.rendezvous) {
                prepareRendezvous(s);
            }
            if (p.hasQueued() || !tryPost(s)) {
                p.enqueue(s);
            }
            return s;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The blocking send's fast path: an eager message the transport takes at once needs no
     * request object. Returns false when the general path must be taken (rendezvous, a queue
     * to this peer, or no room now).
     */
    public boolean sendNow(int context, int myCommRank, int dest, int tag, MemorySegment data) {
        checkFatal();
        lock.lock();
        try {
            PeerState p = peers[dest];
            if (p == null) {
                p = connect(dest);
            }
            long len = data.byteSize();
            if (len > p.eagerLimit || p.hasQueued()) {
                return false;
            }
            WireHeader.write(header, WireHeader.EAGER, (byte) 0, context, myCommRank, tag, len, 0);
            if (p.endpoint.send(baseHeader, data) != PostStatus.OK) {
                return false;
            }
            profiler.messageSent(len);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void prepareRendezvous(SendOp s) {
        MemorySegment src = s.data;
        if (!src.isNative()) {
            s.staging = pool.acquire(src.byteSize());
            MemorySegment.copy(src, 0, s.staging, 0, src.byteSize());
            src = s.staging;
        }
        s.registration = s.peer.transport.register(src);
        s.id = table.add(s);
        s.put = src.byteSize() >= s.peer.putFrom;
    }

    /** Tries to hand the send to the transport; false if it must wait (RETRY). */
    private boolean tryPost(SendOp s) {
        PeerState p = s.peer;
        int status;
        if (s.rendezvous) {
            WireHeader.write(header, WireHeader.RTS, s.put ? WireHeader.FLAG_RPUT : 0, s.context,
                    s.myCommRank, s.tag, s.data.byteSize(), s.id);
            WireHeader.writeRemote(header, s.registration.address(), s.registration.remoteKey());
            status = p.endpoint.send(rtsHeader, empty);
            if (status == PostStatus.OK) {
                s.phase = s.put ? SendOp.Phase.WAIT_CTS : SendOp.Phase.WAIT_FIN;
            }
            return status == PostStatus.OK;
        }
        if (s.synchronous && s.id == 0) {
            s.id = table.add(s);
        }
        WireHeader.write(header, WireHeader.EAGER, s.synchronous ? WireHeader.FLAG_SYNC : 0,
                s.context, s.myCommRank, s.tag, s.data.byteSize(), s.id);
        status = p.endpoint.send(baseHeader, s.data);
        if (status != PostStatus.OK) {
            return false;
        }
        if (s.synchronous) {
            s.phase = SendOp.Phase.WAIT_ACK;
        } else {
            s.finish();
        }
        return true;
    }

    private int retryQueued() {
        int work = 0;
        for (PeerState p : peers) {
            if (p == null) {
                continue;
            }
            if (p.pendingCount > 0) {
                work += retryControl(p);
            }
            while (p.hasQueued()) {
                if (!tryPost(p.queuedHead)) {
                    break;
                }
                p.dequeue();
                work++;
            }
        }
        return work;
    }

    private int retryControl(PeerState p) {
        int done = 0;
        while (done < p.pendingCount) {
            if (!postControl(p, p.pendingKinds[done], p.pendingIds[done])) {
                break;
            }
            done++;
        }
        System.arraycopy(p.pendingKinds, done, p.pendingKinds, 0, p.pendingCount - done);
        System.arraycopy(p.pendingIds, done, p.pendingIds, 0, p.pendingCount - done);
        p.pendingCount -= done;
        return done;
    }

    private boolean postControl(PeerState p, byte kind, long id) {
        WireHeader.write(header, kind, (byte) 0, 0, 0, 0, 0, id);
        return p.endpoint.send(baseHeader, empty) == PostStatus.OK;
    }

    void sendControl(PeerState p, byte kind, long id) {
        if (p.pendingCount > 0 || !postControl(p, kind, id)) {
            p.addPendingControl(kind, id);
        }
    }

    // ------------------------------------------------------------------ receive side

    /** Posts a receive into {@code data} (exactly the buffer's bytes). */
    public RecvOp receive(int context, int source, int tag, MemorySegment data, Object keepAlive,
                          Runnable onDone) {
        checkFatal();
        lock.lock();
        try {
            RecvOp r = new RecvOp(context, source, tag, data, keepAlive);
            r.onDone = onDone;
            Unexpected u = queues.findUnexpected(context, source, tag);
            if (u != null) {
                queues.removeUnexpected(u);
                deliverUnexpected(u, r);
            } else {
                queues.post(r);
            }
            return r;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A receive that the caller waits for at once (blocking MPI_Recv). Below
     * MPI_THREAD_MULTIPLE only one thread calls MPI at a time, so one receive object is reused;
     * it must not be kept after the wait.
     */
    public RecvOp receiveBlocking(int context, int source, int tag, MemorySegment data,
                                  Object keepAlive, Runnable onDone) {
        if (multiThreaded) {
            return receive(context, source, tag, data, keepAlive, onDone);
        }
        checkFatal();
        RecvOp r = scratchReceive;
        queues.unlink(r); // left posted only if a previous wait ended with an error
        if (r.id != 0) {
            table.remove(r.id);
        }
        r.reinit(context, source, tag, data, keepAlive, onDone);
        r.id = 0;
        Unexpected u = queues.findUnexpected(context, source, tag);
        if (u != null) {
            queues.removeUnexpected(u);
            deliverUnexpected(u, r);
        } else {
            queues.post(r);
        }
        return r;
    }

    /** MPI_Iprobe: the first matching unexpected message, or null; with remove, dequeues it. */
    public Unexpected probe(int context, int source, int tag, boolean remove) {
        checkFatal();
        lock.lock();
        try {
            Unexpected u = queues.findUnexpected(context, source, tag);
            if (u == null) {
                progressLocked();
                u = queues.findUnexpected(context, source, tag);
            }
            if (u != null && remove) {
                queues.removeUnexpected(u);
            }
            return u;
        } finally {
            lock.unlock();
        }
    }

    /** Receives a message taken by a matched probe. */
    public RecvOp receiveMatched(Unexpected u, MemorySegment data, Object keepAlive,
                                 Runnable onDone) {
        checkFatal();
        lock.lock();
        try {
            RecvOp r = new RecvOp(u.context, u.source, u.tag, data, keepAlive);
            r.onDone = onDone;
            deliverUnexpected(u, r);
            return r;
        } finally {
            lock.unlock();
        }
    }

    boolean cancelReceive(RecvOp r) {
        lock.lock();
        try {
            if (!r.posted) {
                return false;
            }
            queues.unlink(r);
            r.markCancelled();
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void deliverUnexpected(Unexpected u, RecvOp r) {
        if (u.rendezvous) {
            if (u.put) {
                puts.start(r, u.peer, u.source, u.tag, u.length, u.senderRequest);
                return;
            }
            startRead(r, u.peer, u.source, u.tag, u.length, u.remoteAddress, u.remoteKey,
                    u.senderRequest);
            return;
        }
        long n = Math.min(u.length, r.data.byteSize());
        if (n > 0) {
            MemorySegment.copy(u.payload, 0, r.data, 0, n);
        }
        if (u.payload != null) {
            pool.release(u.payload);
        }
        if (u.sync) {
            sendControl(u.peer, WireHeader.SYNC_ACK, u.senderRequest);
        }
        r.finish(u.source, u.tag, n, u.length > n ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS);
    }

    @Override
    public void onReceive(int source, MemorySegment m) {
        onReceive(source, m, 0, m.byteSize());
    }

    @Override
    public void onReceive(int source, MemorySegment m, long at, long size) {
        byte kind = WireHeader.kind(m, at);
        switch (kind) {
            case WireHeader.EAGER -> onEager(source, m, at);
            case WireHeader.RTS -> onRts(source, m, at);
            case WireHeader.FIN, WireHeader.SYNC_ACK -> {
                Object o = table.remove(WireHeader.request(m, at));
                if (o instanceof SendOp s) {
                    releaseRendezvous(s);
                    s.finish();
                }
            }
            case WireHeader.CTS -> puts.onCts(source, m, at);
            case WireHeader.PUT_FIN -> puts.onPutFin(source, WireHeader.request(m, at));
            default -> fail("rank " + worldRank + ": corrupt message kind " + kind
                    + " from rank " + source);
        }
    }

    private void onEager(int sourceWorld, MemorySegment m, long at) {
        int context = WireHeader.context(m, at);
        int src = WireHeader.source(m, at);
        int tag = WireHeader.tag(m, at);
        long length = WireHeader.length(m, at);
        boolean sync = (WireHeader.flags(m, at) & WireHeader.FLAG_SYNC) != 0;
        RecvOp r = queues.takePosted(context, src, tag);
        if (r != null) {
            long n = Math.min(length, r.data.byteSize());
            if (n > 0) {
                MemorySegment.copy(m, at + WireHeader.BASE_SIZE, r.data, 0, n);
            }
            if (sync) {
                sendControl(peer(sourceWorld), WireHeader.SYNC_ACK, WireHeader.request(m, at));
            }
            r.finish(src, tag, n, length > n ? ErrorClass.ERR_TRUNCATE : ErrorClass.SUCCESS);
            return;
        }
        Unexpected u = new Unexpected(context, src, tag, length, false, sync,
                WireHeader.request(m, at), 0, 0, peer(sourceWorld));
        if (length > 0) {
            u.payload = pool.acquire(length);
            MemorySegment.copy(m, at + WireHeader.BASE_SIZE, u.payload, 0, length);
        }
        queues.addUnexpected(u);
        profiler.unexpected();
    }

    private void onRts(int sourceWorld, MemorySegment m, long at) {
        int context = WireHeader.context(m, at);
        int src = WireHeader.source(m, at);
        int tag = WireHeader.tag(m, at);
        long length = WireHeader.length(m, at);
        RecvOp r = queues.takePosted(context, src, tag);
        PeerState p = peer(sourceWorld);
        boolean put = (WireHeader.flags(m, at) & WireHeader.FLAG_RPUT) != 0;
        if (r != null && put) {
            puts.start(r, p, src, tag, length, WireHeader.request(m, at));
            return;
        }
        if (r != null) {
            startRead(r, p, src, tag, length, WireHeader.address(m, at),
                    WireHeader.remoteKey(m, at), WireHeader.request(m, at));
            return;
        }
        Unexpected u = new Unexpected(context, src, tag, length, true, false,
                WireHeader.request(m, at), WireHeader.address(m, at),
                WireHeader.remoteKey(m, at), p);
        u.put = put;
        queues.addUnexpected(u);
        profiler.unexpected();
    }

    /** RGET: read the sender's registered data, in chunks, then answer FIN. */
    private void startRead(RecvOp r, PeerState p, int src, int tag, long length, long address,
                           long key, long senderRequest) {
        if (p.rendezvous != PeerState.Rendezvous.RGET) {
            fail("rank " + worldRank + ": transport " + p.transport.name()
                    + " offers no RDMA read for the rendezvous from rank " + p.world);
        }
        long n = r.matchRendezvous(p, src, tag, length, senderRequest);
        r.remoteAddress = address;
        r.remoteKey = key;
        r.readOffset = 0;
        if (n == 0) {
            sendControl(p, WireHeader.FIN, senderRequest);
            r.finish(src, tag, 0, r.statusError);
            return;
        }
        if (!r.data.isNative()) {
            r.staging = pool.acquire(n);
        }
        r.id = table.add(r);
        postReads(r);
    }

    private MemorySegment readTarget(RecvOp r) {
        return r.staging != null ? r.staging : r.data;
    }

    /** Posts as many chunks as the window allows; queues the receive for retry if refused. */
    private void postReads(RecvOp r) {
        MemorySegment target = readTarget(r);
        while (r.readOffset < r.bytesToRead && r.chunksOutstanding < maxReadsInFlight) {
            long len = Math.min(r.peer.maxRdma, r.bytesToRead - r.readOffset);
            int st = r.peer.endpoint.read(target.asSlice(r.readOffset, len),
                    r.remoteAddress + r.readOffset, r.remoteKey, r.id);
            if (st != PostStatus.OK) {
                addReadRetry(r);
                return;
            }
            r.readOffset += len;
            r.chunksOutstanding++;
        }
    }

    private void addReadRetry(RecvOp r) {
        for (int i = 0; i < readRetryCount; i++) {
            if (readRetry[i] == r) {
                return;
            }
        }
        if (readRetryCount == readRetry.length) {
            readRetry = java.util.Arrays.copyOf(readRetry, readRetryCount * 2);
        }
        readRetry[readRetryCount++] = r;
    }

    private int retryReads() {
        int n = readRetryCount;
        if (n == 0) {
            return 0;
        }
        RecvOp[] batch = java.util.Arrays.copyOf(readRetry, n);
        readRetryCount = 0;
        for (RecvOp r : batch) {
            postReads(r);
        }
        return n - readRetryCount;
    }

    @Override
    public void onComplete(long wrId, int status) {
        if (status != org.verbatim.spi.CompletionStatus.OK) {
            fail("rank " + worldRank + ": a rendezvous transfer failed: "
                    + org.verbatim.spi.CompletionStatus.describe(status));
        }
        Object o = table.get(wrId);
        if (!(o instanceof RecvOp r)) {
            if (o instanceof SendOp s) {
                puts.onWriteComplete(s);
            }
            return;
        }
        r.chunksOutstanding--;
        if (r.readOffset < r.bytesToRead) {
            postReads(r);
            return;
        }
        if (r.chunksOutstanding > 0) {
            return;
        }
        table.remove(wrId);
        if (r.staging != null) {
            MemorySegment.copy(r.staging, 0, r.data, 0, r.bytesToRead);
            pool.release(r.staging);
            r.staging = null;
        }
        sendControl(r.peer, WireHeader.FIN, r.senderRequest);
        r.finish(r.statusSource, r.statusTag, r.bytesToRead, r.statusError);
    }

    @Override
    public void onImmediate(int source, int immediate) {
        puts.onImmediate(source, immediate);
    }

    @Override
    public void onPeerFailure(int peer, String reason) {
        fail("rank " + peer + " failed: " + reason);
    }

    void releaseRendezvous(SendOp s) {
        if (s.registration != null) {
            MemoryRegistration reg = s.registration;
            s.registration = null;
            reg.close();
        }
        if (s.staging != null) {
            pool.release(s.staging);
            s.staging = null;
        }
    }

    // ------------------------------------------------------------------ progress

    /** One progress pass; returns the work done. */
    public int progress() {
        lock.lock();
        try {
            return progressLocked();
        } finally {
            lock.unlock();
        }
    }

    private int progressLocked() {
        int work = 0;
        for (int i = 0, n = transports.size(); i < n; i++) {
            work += transports.get(i).progress();
        }
        work += retryQueued();
        work += retryReads();
        work += puts.retry();
        if (pollerCount > 0) {
            work += runPollers();
        }
        return work;
    }

    /** Work advanced by the progress engine itself (nonblocking collective schedules). */
    public interface Poller {
        /** Advances; returns work done. Returns a negative number when finished (removed). */
        int doWork();
    }

    private Poller[] pollers = new Poller[4];
    private int pollerCount;

    /** Adds a poller; it runs on every progress pass until it reports that it is finished. */
    public void addPoller(Poller p) {
        lock.lock();
        try {
            if (pollerCount == pollers.length) {
                pollers = java.util.Arrays.copyOf(pollers, pollerCount * 2);
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
                count = idle.idle(count, this);
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
                count = idle.idle(count, this);
            }
        }
    }

    /** One step of the idle strategy; {@code count} is the caller's idle counter. */
    public int idle(int count) {
        return idle.idle(count, this);
    }

    /**
     * Sleeps until a message may have arrived: in the transport when exactly one transport
     * besides self is open and it can sleep on an event (self's traffic never arrives while
     * this thread waits), else by parking for at most 50 microseconds. Under
     * MPI_THREAD_MULTIPLE it always parks: a thread asleep in the transport would hold up the
     * others (the transport is not thread-safe, so it would have to hold the engine's lock).
     */
    void transportIdle(long maxNanos) {
        Transport only = null;
        if (!multiThreaded) {
            for (int i = 0, n = transports.size(); i < n; i++) {
                Transport t = transports.get(i);
                if (t instanceof SelfTransport) {
                    continue;
                }
                if (only != null) {
                    only = null;
                    break;
                }
                only = t;
            }
        }
        org.verbatim.spi.WaitSource source = only == null ? null : only.waitSource();
        if (source == null) {
            java.util.concurrent.locks.LockSupport.parkNanos(Math.min(maxNanos, 50_000));
            return;
        }
        if (source.arm()) {
            source.sleep(maxNanos);
        }
        source.disarm();
    }

    /** Marks the job failed; every waiting call ends with this message. */
    public void fail(String message) {
        if (fatal == null) {
            fatal = message;
        }
        throw new MpiError(ErrorClass.ERR_PROC_ABORTED, message);
    }

    public String fatalMessage() {
        return fatal;
    }

    private void checkFatal() {
        String f = fatal;
        if (f != null) {
            throw new MpiError(ErrorClass.ERR_PROC_ABORTED, f);
        }
    }

    /**
     * Native scratch memory from the engine's pool (collective temporaries): native so that
     * large transfers out of it and into it are single-copy. Not zeroed. Give it back with
     * {@link #giveBack}.
     */
    public MemorySegment borrow(long bytes) {
        lock.lock();
        try {
            return pool.acquire(Math.max(1, bytes)).asSlice(0, bytes);
        } finally {
            lock.unlock();
        }
    }

    public void giveBack(MemorySegment scratch) {
        lock.lock();
        try {
            pool.release(MemorySegment.ofAddress(scratch.address())
                    .reinterpret(Math.max(1, scratch.byteSize())));
        } finally {
            lock.unlock();
        }
    }

    /** Requests in flight (sends waiting for FIN/ACK, rendezvous reads). */
    public int inFlight() {
        return table.inFlight();
    }

    public long communicationMemory() {
        return pool.allocatedBytes();
    }

    public long unexpectedTotal() {
        return queues.unexpectedTotal();
    }

    /** Frees the engine's own memory; transports are closed by their owner. */
    public void close() {
        pool.close();
        puts.close();
        arena.close();
    }
}
