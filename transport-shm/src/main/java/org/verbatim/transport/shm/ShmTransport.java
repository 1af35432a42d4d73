package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.RecordDescriptor.AUX_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.HEADER_LENGTH;
import static org.verbatim.transport.shm.RecordDescriptor.OP_HEADER_LENGTH;


import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.verbatim.spi.Access;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.DynamicPeers;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.WaitSource;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.SharedSegments;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.spi.WorkList;

/**
 * The shared-memory transport of one rank (see {@code docs/transport-shm.md}).
 *
 * <p>Eager: every rank owns one inbox, a many-to-one ring ({@link MpscRing}) in a shared file; a
 * sender copies header and payload straight into the receiver's inbox, or claims the record and
 * packs in place ({@link ShmEndpoint#claim}, {@link InboxClaim}), and {@link #progress} hands each
 * record to {@link CompletionHandler#onReceive}. Memory per rank is one inbox whatever the job size.
 *
 * <p>RDMA: with cross-memory attach ({@link CmaOps}) a write, read, gather write or scatter read is
 * one {@code process_vm_writev/readv} into the peer's address space (gather and scatter lists of up
 * to 64 entries go to the kernel as iovec lists), and a run of up to 64 writes or reads of a
 * {@link WorkList} is one call as well (LIST_POST). They are done when posted and reported at the
 * next progress; a write with immediate then puts an IMMEDIATE record into the peer's inbox. The
 * peer's key table ({@link KeyTable}) lets the initiator refuse a bad key, range or right itself.
 * Without CMA (the kernel refuses, or {@code verbatim.shm.cma=false}) RDMA is emulated by active
 * messages through the inboxes ({@link EmulatedOps}): writes travel as chunks (packed from the
 * gather list) that the target copies into place and acknowledges, reads as a request that the
 * target answers with chunks (unpacked into the scatter list); the capabilities then carry
 * RDMA_WRITE_EMULATED and RDMA_READ_EMULATED.
 *
 * <p>Atomics (64-bit fetch-and-add, compare-and-swap) are active messages either way: the owning
 * rank applies them in ring order with CPU atomics (ATOMICS_EMULATED), except on memory inside a
 * {@link SharedSegments} segment that the target created and the initiator attached, where the
 * initiator runs them directly on its own mapping ({@link ShmSharedSegments}). A flush completes at
 * once when nothing is outstanding towards the peer, else as a FLUSH record that the target answers
 * after everything before it. Refused operations complete with an error status (the target sends
 * an OP_ERROR record, or the initiator decides from the key table); operations towards a peer
 * that is gone complete with PEER_GONE.
 *
 * <p>Waiting: {@link #waitSource()} is an eventfd that peers write only while this rank announced
 * that it sleeps ({@link ShmWaitSource}, {@link PeerWakeups}), or the inbox futex where a peer
 * could not fetch the eventfd.
 *
 * <p>Security: with CMA on, open calls {@code prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY)} so that
 * Yama's ptrace_scope=1 lets same-host peers attach; any process of the same user may then read
 * and write this process's memory, as it could under ptrace_scope=0. {@code verbatim.shm.cma=false}
 * leaves the setting alone (and pidfd_getfd of the eventfds may then be refused: futex).
 *
 * <p>Threading: not thread-safe; the runtime serialises calls (its progress lock). Producers of
 * other ranks write into this rank's inbox concurrently, which the ring is made for.
 */
public final class ShmTransport implements Transport {
    /** Records handled per progress call at most, so one flood cannot starve the caller. */
    private static final int PROGRESS_BATCH = 256;

    private final int rank;
    private final ShmConfiguration config;
    private final CompletionHandler handler;
    private final Arena arena;
    private final Path inboxPath;
    /** This rank's inbox: made at open for world peers on this host, else late for other worlds. */
    private MpscRing inbox;
    /** The inbox file's descriptor, kept open for processes of other worlds ({@link ForeignInboxes}). */
    private int inboxFd;
    private final int worldSize;
    private final ForeignInboxes foreign;
    private final String jobId;
    private final int[] pids;
    private final MpscRing[] peerRings;
    private final ShmEndpoint[] endpoints;
    private final CrossMemoryAttach cma;
    private final boolean cmaEnabled;
    private final String cmaUnavailabilityCause;
    private final Capabilities capabilities;
    private final RegistrationTable registrations;
    /** Completions of operations done while posting, delivered at the next progress. */
    private final LocalCompletions completions;
    private final EmulatedOps emulated;
    private final CmaOps cmaOps;
    private final ShmSharedSegments segments;
    private final PeerWakeups wakeups;
    private final ShmWaitSource waitSource;

    private final PeerLiveness liveness;

    private boolean inProgress;
    /** Consumed bytes of the inbox after which a pass gives them back at once (see drainInbox). */
    private final long flushBytes;
    private boolean closed;

    ShmTransport(TransportContext context, ShmConfiguration config, Arena arena,
                         Path inboxPath, InboxFile.Created created, int[] pids, MpscRing[] peerRings,
                         CrossMemoryAttach cma, boolean cmaEnabled, String cmaUnavailabilityCause,
                         PeerWakeups wakeups, boolean ptraceable) {
        final int capacity = context.size() + DynamicPeers.MAX_ADDED;
        this.rank = context.rank();
        this.config = config;
        this.handler = context.handler();
        this.arena = arena;
        this.inboxPath = inboxPath;
        this.inbox = created == null ? null : new MpscRing(created.file(), config.inboxSize(),
                config.maxRecordLength(), arena.allocate(config.maxRecordLength(), 64),
                arena.allocate(Futex.TIMESPEC_SIZE, 8));
        this.flushBytes = config.inboxSize() / 8;
        this.inboxFd = created == null ? -1 : created.fd();
        this.worldSize = context.size();
        this.jobId = context.bootstrap().jobId();
        this.pids = pids;
        this.peerRings = peerRings;
        this.endpoints = new ShmEndpoint[capacity];
        this.cma = cma;
        this.cmaEnabled = cmaEnabled;
        this.cmaUnavailabilityCause = cmaUnavailabilityCause;
        this.wakeups = wakeups;
        this.waitSource = new ShmWaitSource(inbox, this::idle, inbox == null ? -1 : wakeups.eventFd(), arena);
        this.registrations = new RegistrationTable(inbox == null ? null : keyTable(inbox, config));
        this.completions = new LocalCompletions(config.maxRdmaOps());
        this.emulated = new EmulatedOps(rank, capacity, handler, registrations, completions,
                this::endpointFor, config.maxRdmaOps(),
                config.maxRecordLength() - HEADER_LENGTH - OP_HEADER_LENGTH);
        this.cmaOps = new CmaOps(this, cma, completions, emulated);
        this.segments = new ShmSharedSegments(this, rank, config.directory(),
                context.bootstrap().jobId(), LinuxSyscalls.allocateErrno(arena));
        this.liveness = new PeerLiveness(worldSize, capacity, pids, peerRings, cma, config.livenessIntervalNanos());
        this.capabilities = ShmCapabilities.of(config, cmaEnabled);
        this.foreign = new ForeignInboxes(this, arena, cma, config.maxRecordLength(), ptraceable);
    }

    /** Opens the transport of one rank (the collective start-up of {@link ShmOpen}). */
    static ShmTransport open(TransportContext context, ShmConfiguration config)
            throws TransportException {
        return ShmOpen.open(context, config);
    }

    static KeyTable keyTable(MpscRing ring, ShmConfiguration config) {
        return new KeyTable(ring.buffer().asSlice(InboxDescriptor.keyTableOffset(config.inboxSize()),
                KeyTableDescriptor.LENGTH));
    }

    // ------------------------------------------------------------------ Transport

    @Override
    public String name() {
        return ShmTransportProvider.NAME;
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    /** True when RDMA is single-copy through cross-memory attach. */
    public boolean crossMemoryAttach() {
        return cmaEnabled;
    }

    /** Why cross-memory attach is not in use, or null when it is. */
    public String crossMemoryAttachUnavailabilityCause() {
        return cmaUnavailabilityCause;
    }

    /** The path this rank's inbox had while it was visible (unlinked once open returned). */
    public Path inboxPath() {
        return inboxPath;
    }

    @Override
    public <T> T extension(Class<T> type) {
        return type == SharedSegments.class ? type.cast(segments)
                : type == DynamicPeers.class ? type.cast(foreign) : null;
    }

    // ------------------------------------------------------------------ peers of other worlds

    /**
     * This rank's inbox, made now if its world has no other rank on this host (the name is
     * unlinked at once: the descriptor, kept open, is how other worlds open it); null when it
     * cannot be made (other worlds then reach this process over another transport).
     */
    MpscRing inboxForOtherWorlds() {
        if (inbox != null || closed) {
            return inbox;
        }
        Path path = inboxPath;
        try {
            InboxFile.Created made = InboxFile.create(path, config.inboxSize(), config.maxRecordLength(),
                    ProcessHandle.current().pid(), arena);
            Files.deleteIfExists(path);
            MpscRing ring = new MpscRing(made.file(), config.inboxSize(), config.maxRecordLength(),
                    arena.allocate(config.maxRecordLength(), 64), arena.allocate(Futex.TIMESPEC_SIZE, 8));
            wakeups.createLocal(config.eventFd());
            registrations.publishTo(keyTable(ring, config));
            inboxFd = made.fd();
            inbox = ring;
            waitSource.attach(ring, wakeups.eventFd());
            return ring;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The inbox file's descriptor (see {@link #inboxForOtherWorlds}), or -1. */
    int inboxFd() {
        return inboxFd;
    }

    /** The eventfd peers write to wake this rank, or -1 when it sleeps on the inbox futex. */
    int eventFdForOtherWorlds() {
        return wakeups.eventFd();
    }

    /** Makes peer number {@code peer} the process {@code pid} of another world, whose inbox is {@code ring}. */
    void addForeignPeer(int peer, int pid, MpscRing ring) {
        pids[peer] = pid;
        peerRings[peer] = ring;
    }

    @Override
    public boolean reaches(int peer) {
        return peer >= 0 && peer < peerRings.length && peerRings[peer] != null;
    }

    @Override
    public Endpoint endpoint(int peer) {
        return endpointFor(peer);
    }

    private ShmEndpoint endpointFor(int peer) {
        if (!reaches(peer)) {
            throw new IllegalArgumentException("shm does not reach rank " + peer + " from rank " + rank);
        }
        ShmEndpoint endpoint = endpoints[peer];
        if (endpoint == null) {
            endpoint = new ShmEndpoint(this, peer, pids[peer], peerRings[peer],
                    keyTable(peerRings[peer], config), peer < worldSize ? rank : foreign.source(),
                    config.eagerSize());
            endpoints[peer] = endpoint;
        }
        return endpoint;
    }

    @Override
    public MemoryRegistration register(MemorySegment segment, int access) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("only native memory can be registered, not " + segment);
        }
        return registrations.add(segment, access, segments.contains(segment));
    }

    // ------------------------------------------------------------------ RDMA posting

    int write(ShmEndpoint endpoint, MemorySegment local, IoVector gather, long remoteAddress,
              long remoteKey, boolean withImmediate, int immediate, long wrId) {
        if (liveness.failed(endpoint.peer())) {
            return completeGone(endpoint, wrId);
        }
        if (gather == null) {
            requireNative(local);
        } else {
            requireNative(gather, capabilities.put().maxIov());
        }
        return cmaEnabled
                ? cmaOps.write(endpoint, local, gather, remoteAddress, remoteKey, withImmediate,
                        immediate, wrId)
                : emulated.write(endpoint, local, gather, remoteAddress, remoteKey, withImmediate,
                        immediate, wrId);
    }

    int read(ShmEndpoint endpoint, MemorySegment local, IoVector scatter, long remoteAddress,
             long remoteKey, long wrId) {
        if (liveness.failed(endpoint.peer())) {
            return completeGone(endpoint, wrId);
        }
        if (scatter == null) {
            requireNative(local);
        } else {
            requireNative(scatter, capabilities.get().maxIov());
        }
        return cmaEnabled
                ? cmaOps.read(endpoint, local, scatter, remoteAddress, remoteKey, wrId)
                : emulated.read(endpoint, local, scatter, remoteAddress, remoteKey, wrId);
    }

    int postList(ShmEndpoint endpoint, WorkList list, int from) {
        return cmaEnabled ? cmaOps.postList(endpoint, list, from) : list.postEach(endpoint, from);
    }

    int atomic(ShmEndpoint endpoint, MemorySegment result, int opcode, long remoteAddress,
               long remoteKey, long operand, long swap, long wrId) {
        requireNative(result);
        if (result.byteSize() < 8) {
            throw new IllegalArgumentException("an atomic's result needs 8 bytes, not " + result);
        }
        if (liveness.failed(endpoint.peer())) {
            return completeGone(endpoint, wrId);
        }
        if (RemoteKeys.shared(remoteKey) && !KeyTable.beyond(remoteKey)) {
            if (!completions.reserve(1)) {
                return endpoint.retry();
            }
            int status = !endpoint.keys.allows(remoteKey, remoteAddress, 8, Access.REMOTE_ATOMIC)
                    ? CompletionStatus.REMOTE_ACCESS_ERROR : ShmAtomics.checkAlignment(remoteAddress);
            if (status != CompletionStatus.OK || segments.applyAtomic(endpoint.peer(),
                    remoteAddress, opcode, operand, swap, result)) {
                completions.complete(wrId, status);
                return PostStatus.OK;
            }
            completions.unreserve(1); // not attached here: the target applies it
        }
        return emulated.atomic(endpoint, result, opcode, remoteAddress, remoteKey, operand, swap,
                wrId);
    }

    int flush(ShmEndpoint endpoint, long wrId) {
        if (liveness.failed(endpoint.peer())) {
            return completeGone(endpoint, wrId);
        }
        return emulated.flush(endpoint, wrId);
    }

    /** An operation towards a peer known to be gone completes with PEER_GONE. */
    private int completeGone(ShmEndpoint endpoint, long wrId) {
        if (!completions.reserve(1)) {
            return endpoint.retry();
        }
        completions.complete(wrId, CompletionStatus.PEER_GONE);
        return PostStatus.OK;
    }

    /** Posts what the endpoint owes its peer; true when nothing is left. */
    boolean pump(ShmEndpoint endpoint) {
        return emulated.pump(endpoint);
    }

    private static void requireNative(MemorySegment local) {
        if (!local.isNative()) {
            throw new IllegalArgumentException("RDMA needs registered native memory, not " + local);
        }
    }

    private static void requireNative(IoVector list, int maxIov) {
        if (list.count() > maxIov) {
            throw new IllegalArgumentException("list of " + list.count() + " entries exceeds maxIov "
                    + maxIov);
        }
        if (!list.allNative()) {
            throw new IllegalArgumentException("RDMA needs registered native memory in every entry");
        }
    }

    // ------------------------------------------------------------------ progress

    @Override
    public int progress() {
        if (inProgress || closed) {
            return 0;
        }
        inProgress = true;
        try {
            int work = 0;
            if (completions.pending()) {
                work += completions.deliver(handler);
            }
            if (foreign.hasReady()) {
                work += foreign.deliverReady(); // before the inbox: they came first
            }
            if (inbox != null) {
                work += drainInbox();
            }
            if (emulated.pumping()) {
                work += emulated.pumpAll();
            }
            if (work == 0) {
                liveness.idlePass();
            }
            if (liveness.pending()) {
                work += liveness.deliver(endpoints, emulated, handler);
            }
            return work;
        } finally {
            inProgress = false;
        }
    }

    /**
     * This rank's own inbox file (ring and key table), which it creates for its peers to write
     * into; the peers' inboxes it maps are theirs, counted by them.
     */
    @Override
    public long communicationMemory() {
        return inbox == null ? 0 : inbox.buffer().byteSize();
    }

    /**
     * Sleeps until a peer commits into the inbox ({@link ShmWaitSource}): on an eventfd that the
     * runtime can poll together with other transports, or on the inbox futex where peers could not
     * fetch the eventfd.
     */
    @Override
    public WaitSource waitSource() {
        return waitSource;
    }

    /** Why the wait source has no descriptor (fd() == -1), or null when it has one. */
    public String eventFdUnavailabilityCause() {
        return inbox == null ? "no peer on this host" : wakeups.unavailabilityCause();
    }

    /** True when nothing local is pending, so sleeping until a peer's commit is safe. */
    private boolean idle() {
        return !closed && !emulated.pumping() && !completions.pending() && !liveness.pending();
    }

    /** Record header fields (a static VarHandle: cheaper than a layout argument below C2). */
    private static final java.lang.invoke.VarHandle RECORD_INT = ValueLayout.JAVA_INT.varHandle();

    private int drainInbox() {
        final MpscRing ring = inbox;
        final MemorySegment buffer = ring.buffer();
        int n = 0;
        try {
            n = drainInbox(ring, buffer);
        } finally {
            // The consumed records are zeroed and their space given back in one go, and not
            // on the way to the caller: at the next pass that finds nothing new (the caller is
            // waiting then), or once an eighth of the ring waits for it. Zeroing a record just
            // read writes a line the producer shares; a reply's claim right after (a locked
            // instruction) would first wait for that line to be taken from the producer's core.
            if (n == 0 || ring.unflushed() >= flushBytes) {
                ring.flush();
            }
        }
        return n;
    }

    private int drainInbox(MpscRing ring, MemorySegment buffer) {
        int n = 0;
        while (n < PROGRESS_BATCH) {
            final long record = ring.poll();
            if (record < 0) {
                break;
            }
            final int length = ring.polledLength();
            final int type = ring.polledType();
            int source = ring.polledSource();
            try {
                if (source >= ForeignInboxes.SOURCE_BASE) {
                    final int raw = source;
                    source = foreign.peerOf(raw);
                    if (source < 0) {
                        foreign.park(raw, type, buffer, record, length);
                    }
                }
                if (source >= 0) {
                    deliver(type, source, buffer, record, length);
                }
            } finally {
                ring.consume(record, length);
            }
            n++;
        }
        return n;
    }

    /** Hands one record from peer {@code source} to the runtime or to the emulated operations. */
    void deliver(int type, int source, MemorySegment buffer, long record, int length) {
        switch (type) {
            case RecordDescriptor.TYPE_MESSAGE -> handler.onReceive(source,
                    buffer, record + HEADER_LENGTH, length - HEADER_LENGTH);
            case RecordDescriptor.TYPE_IMMEDIATE -> handler.onImmediate(source,
                    (int) RECORD_INT.get(buffer, record + AUX_OFFSET));
            default -> emulated.onRecord(type, source, buffer, record, length);
        }
    }


    // ------------------------------------------------------------------ liveness

    /** Called by an endpoint whose posts keep getting RETRY. */
    void checkPeerIfDue(int peer) {
        liveness.checkIfDue(peer);
    }

    /** Fails {@code peer} (once) for {@code reason} (a failed cross-memory copy: the process is gone). */
    void reportFailure(int peer, String reason) {
        liveness.report(peer, reason);
    }

    // ------------------------------------------------------------------ close

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (inbox != null) {
            RECORD_INT.setVolatile(inbox.buffer(), (long) InboxDescriptor.FINALIZED_OFFSET, 1);
        }
        segments.closeAll();
        wakeups.close();
        foreign.close();
        if (inboxFd >= 0) {
            FileDescriptors.close(LinuxSyscalls.allocateErrno(arena), inboxFd);
            inboxFd = -1;
        }
        try {
            Files.deleteIfExists(inboxPath);
        } catch (IOException ignored) {
            // unlinked at open already; this only matters if open was cut short
        }
        arena.close();
    }

    @Override
    public String toString() {
        return "ShmTransport[rank=" + rank + ", " + config + ", cma=" + cmaEnabled
                + (cmaEnabled ? "" : " (" + cmaUnavailabilityCause + ")") + "]";
    }
}
