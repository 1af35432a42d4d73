package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.RecordDescriptor.AUX_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.FLAG_IMMEDIATE;
import static org.verbatim.transport.shm.RecordDescriptor.FLAG_LAST;
import static org.verbatim.transport.shm.RecordDescriptor.HEADER_LENGTH;
import static org.verbatim.transport.shm.RecordDescriptor.OP_CHUNK_FLAGS_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_CHUNK_ID_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_CHUNK_OFFSET_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_HEADER_LENGTH;
import static org.verbatim.transport.shm.RecordDescriptor.OP_READ_ID_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_READ_LENGTH_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_REMOTE_ADDRESS_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_REMOTE_KEY_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_WRITE_FLAGS_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.OP_WRITE_ID_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.SOURCE_OFFSET;
import static org.verbatim.transport.shm.RecordDescriptor.TYPE_OFFSET;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import org.verbatim.bootstrap.Bootstrap;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.OperationLimits;
import org.verbatim.spi.WaitSource;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;

/**
 * The shared-memory transport of one rank.
 *
 * <p>Eager: every rank owns one inbox, a many-to-one ring ({@link MpscRing}) in a shared file; a
 * sender copies header and payload straight into the receiver's inbox, and {@link #progress}
 * hands each record to {@link CompletionHandler#onReceive}. Memory per rank is one inbox whatever
 * the job size.
 *
 * <p>RDMA: with cross-memory attach a write or read is one {@code process_vm_writev/readv} into
 * the peer's address space, done when posted and reported at the next progress; a write with
 * immediate then puts an IMMEDIATE record into the peer's inbox. Without it (the kernel refuses,
 * or {@code verbatim.shm.cma=false}) RDMA is emulated by active messages through the inboxes:
 * writes travel as chunks that the target copies into place and acknowledges, reads as a request
 * that the target answers with chunks, pipelined as far as the rings allow. The target has to make
 * progress, so the capabilities then carry RDMA_WRITE_EMULATED and RDMA_READ_EMULATED.
 *
 * <p>Security: with CMA on, open calls {@code prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY)} so that
 * Yama's ptrace_scope=1 lets same-host peers attach; any process of the same user may then read
 * and write this process's memory, as it could under ptrace_scope=0. {@code verbatim.shm.cma=false}
 * leaves the setting alone.
 *
 * <p>Threading: not thread-safe; the runtime serialises calls (its progress lock). Producers of
 * other ranks write into this rank's inbox concurrently, which the ring is made for.
 */
public final class ShmTransport implements Transport {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    /** Records handled per progress call at most, so one flood cannot starve the caller. */
    private static final int PROGRESS_BATCH = 256;

    private final int rank;
    private final ShmConfiguration config;
    private final CompletionHandler handler;
    private final Arena arena;
    private final Path inboxPath;
    private final MpscRing inbox;
    private final int[] pids;
    private final MpscRing[] peerRings;
    private final ShmEndpoint[] endpoints;
    private final CrossMemoryAttach cma;
    private final boolean cmaEnabled;
    private final String cmaUnavailabilityCause;
    private final Capabilities capabilities;
    private final RegistrationTable registrations = new RegistrationTable();
    private final int chunkLength;

    /** Initiator operations by id; a free stack of ids. */
    private final RdmaOp[] ops;
    private final int[] freeOpIds;
    private int freeOpCount;
    /** Pooled target-side operations. */
    private RdmaOp spareOps;

    /** Locally completed CMA operations, delivered at the next progress. */
    private final long[] completions;
    private int completionHead;
    private int completionCount;
    /** Completion slots promised to posted CMA operations (delivered ones excluded). */
    private int reservedCompletions;

    /** Endpoints with a backlog. */
    private final ShmEndpoint[] pumpList;
    private int pumpCount;

    private final boolean[] failed;
    private final String[] failureReasons;
    private boolean failuresPending;
    private final long[] nextPeerCheck;
    private long nextLivenessCheck;
    /**
     * Idle passes left before the clock is read again for the liveness check: reading it on
     * every idle pass was most of a pass (18% of a waiting rank's time in a 2-rank barrier),
     * and a longer pass is a later look at the inbox.
     */
    private int idlePassesBeforeClock;
    private static final int IDLE_PASSES_PER_CLOCK = 64;

    private boolean inProgress;
    private boolean closed;

    private ShmTransport(TransportContext context, ShmConfiguration config, Arena arena,
                         Path inboxPath, MpscRing inbox, int[] pids, MpscRing[] peerRings,
                         CrossMemoryAttach cma, boolean cmaEnabled, String cmaUnavailabilityCause) {
        this.rank = context.rank();
        this.config = config;
        this.handler = context.handler();
        this.arena = arena;
        this.inboxPath = inboxPath;
        this.inbox = inbox;
        this.pids = pids;
        this.peerRings = peerRings;
        this.endpoints = new ShmEndpoint[context.size()];
        this.cma = cma;
        this.cmaEnabled = cmaEnabled;
        this.cmaUnavailabilityCause = cmaUnavailabilityCause;
        this.chunkLength = config.maxRecordLength() - HEADER_LENGTH - OP_HEADER_LENGTH;
        this.ops = new RdmaOp[config.maxRdmaOps()];
        this.freeOpIds = new int[ops.length];
        for (int i = ops.length - 1; i >= 0; i--) {
            ops[i] = new RdmaOp(i);
            freeOpIds[freeOpCount++] = i;
        }
        this.completions = new long[ops.length];
        this.pumpList = new ShmEndpoint[context.size()];
        this.failed = new boolean[context.size()];
        this.failureReasons = new String[context.size()];
        this.nextPeerCheck = new long[context.size()];
        this.nextLivenessCheck = System.nanoTime() + config.livenessIntervalNanos();
        this.capabilities = capabilities(config, cmaEnabled);
    }

    static Capabilities capabilities(ShmConfiguration config, boolean cma) {
        EnumSet<Capability> flags = EnumSet.of(Capability.SEND_RECV,
                Capability.SHARED_RECEIVE_QUEUE, Capability.RDMA_WRITE, Capability.RDMA_READ,
                Capability.WRITE_WITH_IMMEDIATE, Capability.IN_ORDER_PLACEMENT);
        if (!cma) {
            flags.add(Capability.RDMA_WRITE_EMULATED);
            flags.add(Capability.RDMA_READ_EMULATED);
        } else {
            flags.add(Capability.RDMA_BY_CPU);
        }
        OperationLimits rdma = cma ? new OperationLimits(0, 0, 1L << 40, 1)
                : new OperationLimits(0, 1L << 40, 0, 1);
        return new Capabilities(flags, new OperationLimits(0, config.eagerSize(), 0, 2), rdma,
                rdma, java.util.EnumSet.noneOf(org.verbatim.spi.AtomicOp.class),
                config.maxRdmaOps(), 0);
    }

    /**
     * Opens the transport: collective over the world (two bootstrap barriers on every rank).
     *
     * <ol>
     *   <li>create and map the own inbox (if some peer shares the host), publish pid and the
     *       address of the probe word; barrier;</li>
     *   <li>map every same-host peer's inbox; probe CMA by reading a peer's probe word with
     *       process_vm_readv; publish the result; barrier;</li>
     *   <li>unlink the inbox files of this host (every rank has mapped them now); use CMA only if
     *       every rank on this host could.</li>
     * </ol>
     */
    static ShmTransport open(TransportContext context, ShmConfiguration config)
            throws TransportException {
        final int rank = context.rank();
        final int size = context.size();
        final Bootstrap bootstrap = context.bootstrap();
        final long pid = ProcessHandle.current().pid();
        int localPeers = 0;
        for (int p = 0; p < size; p++) {
            if (p != rank && context.sameHost(p)) {
                localPeers++;
            }
        }
        Arena arena = Arena.ofShared();
        Path inboxPath = InboxFile.path(config.directory(), bootstrap.jobId(), rank);
        boolean created = false;
        try {
            CrossMemoryAttach cma = new CrossMemoryAttach(arena);
            String cmaCause = null;
            if (!config.cma()) {
                cmaCause = "disabled by " + ShmConfiguration.CMA.name() + "=false";
            } else {
                int e = cma.allowAnyPtracer();
                if (e != 0 && e != LinuxSyscalls.EINVAL) {
                    cmaCause = "prctl(PR_SET_PTRACER) failed: " + LinuxSyscalls.describe(e);
                }
            }
            MemorySegment zeroes = arena.allocate(config.maxRecordLength(), 64);
            MpscRing inbox = null;
            if (localPeers > 0) {
                MemorySegment file = InboxFile.create(inboxPath, config.inboxSize(),
                        config.maxRecordLength(), pid, arena);
                created = true;
                inbox = new MpscRing(file, config.inboxSize(), config.maxRecordLength(), zeroes,
                        arena.allocate(Futex.TIMESPEC_SIZE, 8));
                bootstrap.put(key("pid", rank), Long.toString(pid));
                bootstrap.put(key("probe", rank),
                        Long.toString(file.address() + InboxDescriptor.PROBE_OFFSET));
            }
            bootstrap.barrier();

            int[] pids = new int[size];
            MpscRing[] rings = new MpscRing[size];
            int probePeer = -1;
            for (int p = 0; p < size; p++) {
                if (p == rank || !context.sameHost(p)) {
                    continue;
                }
                String peerPid = bootstrap.get(key("pid", p));
                if (peerPid == null) {
                    throw new TransportException("rank " + p + " on this host published no shm inbox");
                }
                pids[p] = Integer.parseInt(peerPid);
                MemorySegment file = InboxFile.map(
                        InboxFile.path(config.directory(), bootstrap.jobId(), p),
                        config.inboxSize(), config.maxRecordLength(), arena);
                rings[p] = new MpscRing(file, config.inboxSize(), config.maxRecordLength(), null);
                if (probePeer < 0) {
                    probePeer = p;
                }
            }
            if (cmaCause == null && probePeer >= 0) {
                cmaCause = probe(cma, arena, pids[probePeer],
                        Long.parseLong(bootstrap.get(key("probe", probePeer))), probePeer);
            }
            if (localPeers > 0) {
                bootstrap.put(key("cma", rank), cmaCause == null ? "ok" : cmaCause);
            }
            bootstrap.barrier();
            // Every same-host rank has mapped every inbox: unlink them all. Each rank removes the
            // files of all its peers as well as its own, so that none survives even if its owner
            // dies right now, and none is visible once any rank has returned from open.
            if (created) {
                Files.deleteIfExists(inboxPath);
                created = false;
            }
            for (int p = 0; p < size; p++) {
                if (rings[p] != null) {
                    Files.deleteIfExists(InboxFile.path(config.directory(), bootstrap.jobId(), p));
                }
            }
            for (int p = 0; p < size && cmaCause == null; p++) {
                if (rings[p] != null) {
                    String verdict = bootstrap.get(key("cma", p));
                    if (!"ok".equals(verdict)) {
                        cmaCause = "rank " + p + " cannot use CMA: " + verdict;
                    }
                }
            }
            if (localPeers == 0) {
                cmaCause = "no peer on this host";
            }
            return new ShmTransport(context, config, arena, inboxPath, inbox, pids, rings, cma,
                    cmaCause == null, cmaCause);
        } catch (IOException | RuntimeException e) {
            cleanUpFailedOpen(arena, created ? inboxPath : null);
            throw new TransportException("shm transport of rank " + rank + " failed to open: " + e, e);
        } catch (TransportException e) {
            cleanUpFailedOpen(arena, created ? inboxPath : null);
            throw e;
        }
    }

    private static void cleanUpFailedOpen(Arena arena, Path created) {
        if (created != null) {
            try {
                Files.deleteIfExists(created);
            } catch (IOException ignored) {
                // best effort: the open already failed for a reason we report
            }
        }
        arena.close();
    }

    /** Reads the peer's probe word through CMA: null when it worked, else why not. */
    private static String probe(CrossMemoryAttach cma, Arena arena, int pid, long address, int peer) {
        MemorySegment word = arena.allocate(8, 8);
        int e = cma.read(pid, word, address);
        if (e != 0) {
            return "process_vm_readv of rank " + peer + " refused: " + LinuxSyscalls.describe(e);
        }
        if (word.get(ValueLayout.JAVA_LONG, 0) != InboxDescriptor.PROBE_MAGIC) {
            return "process_vm_readv of rank " + peer + " read the wrong data";
        }
        return null;
    }

    private static String key(String what, int rank) {
        return "shm." + what + "." + rank;
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
            endpoint = new ShmEndpoint(this, peer, pids[peer], peerRings[peer], rank,
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
        return registrations.add(segment);
    }

    // ------------------------------------------------------------------ RDMA posting

    int write(ShmEndpoint endpoint, MemorySegment local, long remoteAddress, long remoteKey,
              boolean withImmediate, int immediate, long wrId) {
        requireNative(local);
        if (cmaEnabled) {
            if (reservedCompletions == completions.length) {
                return endpoint.retry();
            }
            int e = cma.write(endpoint.pid, local, remoteAddress);
            if (e != 0) {
                return cmaFailed(endpoint, e, "process_vm_writev", remoteAddress, local.byteSize());
            }
            reservedCompletions++;
            if (withImmediate && (endpoint.backlogHead != null || !postImmediate(endpoint, immediate))) {
                RdmaOp op = spareOp();
                op.kind = RdmaOp.IMMEDIATE;
                op.immediate = immediate;
                op.wrId = wrId;
                enqueue(endpoint, op);
                return PostStatus.OK;
            }
            completeLocally(wrId);
            return PostStatus.OK;
        }
        RdmaOp op = takeOp();
        if (op == null) {
            return endpoint.retry();
        }
        op.kind = RdmaOp.WRITE;
        op.local = local;
        op.remoteAddress = remoteAddress;
        op.remoteKey = remoteKey;
        op.length = local.byteSize();
        op.withImmediate = withImmediate;
        op.immediate = immediate;
        op.wrId = wrId;
        enqueue(endpoint, op);
        pump(endpoint);
        return PostStatus.OK;
    }

    int read(ShmEndpoint endpoint, MemorySegment local, long remoteAddress, long remoteKey,
             long wrId) {
        requireNative(local);
        if (cmaEnabled) {
            if (reservedCompletions == completions.length) {
                return endpoint.retry();
            }
            int e = cma.read(endpoint.pid, local, remoteAddress);
            if (e != 0) {
                return cmaFailed(endpoint, e, "process_vm_readv", remoteAddress, local.byteSize());
            }
            reservedCompletions++;
            completeLocally(wrId);
            return PostStatus.OK;
        }
        RdmaOp op = takeOp();
        if (op == null) {
            return endpoint.retry();
        }
        op.kind = RdmaOp.READ;
        op.local = local;
        op.remoteAddress = remoteAddress;
        op.remoteKey = remoteKey;
        op.length = local.byteSize();
        op.wrId = wrId;
        enqueue(endpoint, op);
        pump(endpoint);
        return PostStatus.OK;
    }

    private static void requireNative(MemorySegment local) {
        if (!local.isNative()) {
            throw new IllegalArgumentException("RDMA needs registered native memory, not " + local);
        }
    }

    private int cmaFailed(ShmEndpoint endpoint, int errno, String call, long address, long length) {
        if (errno == LinuxSyscalls.ESRCH) {
            reportFailure(endpoint.peer(), "process " + endpoint.pid + " of rank " + endpoint.peer()
                    + " is gone (" + call + ": " + LinuxSyscalls.describe(errno) + ")");
            return PostStatus.OK;
        }
        throw new IllegalStateException(call + " of " + length + " bytes at 0x"
                + Long.toHexString(address) + " in rank " + endpoint.peer() + " failed: "
                + LinuxSyscalls.describe(errno));
    }

    private void completeLocally(long wrId) {
        completions[(completionHead + completionCount) % completions.length] = wrId;
        completionCount++;
    }

    private boolean postImmediate(ShmEndpoint endpoint, int immediate) {
        MpscRing ring = endpoint.ring;
        long offset = ring.claim(HEADER_LENGTH);
        if (offset == MpscRing.FULL) {
            return false;
        }
        ring.buffer().set(ValueLayout.JAVA_INT, offset + AUX_OFFSET, immediate);
        ring.commit(offset, RecordDescriptor.TYPE_IMMEDIATE, rank, HEADER_LENGTH);
        return true;
    }

    // ------------------------------------------------------------------ backlog

    private RdmaOp takeOp() {
        if (freeOpCount == 0) {
            return null;
        }
        return ops[freeOpIds[--freeOpCount]];
    }

    private void releaseOp(RdmaOp op) {
        op.clear();
        if (op.id >= 0) {
            freeOpIds[freeOpCount++] = op.id;
        } else {
            op.next = spareOps;
            spareOps = op;
        }
    }

    private RdmaOp spareOp() {
        RdmaOp op = spareOps;
        if (op == null) {
            return new RdmaOp(-1);
        }
        spareOps = op.next;
        op.next = null;
        return op;
    }

    private void enqueue(ShmEndpoint endpoint, RdmaOp op) {
        endpoint.enqueue(op);
        if (!endpoint.pumping) {
            endpoint.pumping = true;
            pumpList[pumpCount++] = endpoint;
        }
    }

    /** Posts what the endpoint owes its peer, in order, while the peer's inbox has room. */
    boolean pump(ShmEndpoint endpoint) {
        while (endpoint.backlogHead != null) {
            RdmaOp op = endpoint.backlogHead;
            if (!advance(endpoint, op)) {
                return false;
            }
            endpoint.dequeue();
            switch (op.kind) {
                case RdmaOp.WRITE, RdmaOp.READ -> {
                    // stays in the id table until the ACK or the last chunk arrives
                }
                default -> releaseOp(op);
            }
        }
        return true;
    }

    private int pumpAll() {
        int work = 0;
        for (int i = 0; i < pumpCount; ) {
            ShmEndpoint endpoint = pumpList[i];
            if (endpoint.backlogHead != null) {
                pump(endpoint);
            }
            if (endpoint.backlogHead == null) {
                endpoint.pumping = false;
                pumpList[i] = pumpList[--pumpCount];
                pumpList[pumpCount] = null;
                work++;
            } else {
                i++;
            }
        }
        return work;
    }

    /** Posts as much of {@code op} as fits; true when all of it went out. */
    private boolean advance(ShmEndpoint endpoint, RdmaOp op) {
        final MpscRing ring = endpoint.ring;
        final MemorySegment buffer = ring.buffer();
        switch (op.kind) {
            case RdmaOp.WRITE, RdmaOp.READ_RESPONSE -> {
                final boolean write = op.kind == RdmaOp.WRITE;
                do {
                    final int n = (int) Math.min(op.length - op.offset, chunkLength);
                    final int recordLength = HEADER_LENGTH + OP_HEADER_LENGTH + n;
                    final long record = ring.claim(recordLength);
                    if (record == MpscRing.FULL) {
                        return false;
                    }
                    final long body = record + HEADER_LENGTH;
                    final boolean last = op.offset + n == op.length;
                    int flags = last ? FLAG_LAST : 0;
                    if (write) {
                        buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET,
                                op.remoteAddress + op.offset);
                        buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET, op.remoteKey);
                        buffer.set(ValueLayout.JAVA_INT, body + OP_WRITE_ID_OFFSET, op.id);
                        if (last && op.withImmediate) {
                            flags |= FLAG_IMMEDIATE;
                            buffer.set(ValueLayout.JAVA_INT, record + AUX_OFFSET, op.immediate);
                        }
                        buffer.set(ValueLayout.JAVA_INT, body + OP_WRITE_FLAGS_OFFSET, flags);
                    } else {
                        buffer.set(ValueLayout.JAVA_LONG, body + OP_CHUNK_OFFSET_OFFSET, op.offset);
                        buffer.set(ValueLayout.JAVA_INT, body + OP_CHUNK_ID_OFFSET, op.peerOpId);
                        buffer.set(ValueLayout.JAVA_INT, body + OP_CHUNK_FLAGS_OFFSET, flags);
                    }
                    MemorySegment.copy(op.local, op.offset, buffer, body + OP_HEADER_LENGTH, n);
                    ring.commit(record, write ? RecordDescriptor.TYPE_WRITE_CHUNK
                            : RecordDescriptor.TYPE_READ_CHUNK, rank, recordLength);
                    op.offset += n;
                } while (op.offset < op.length);
                return true;
            }
            case RdmaOp.READ -> {
                final int recordLength = HEADER_LENGTH + OP_HEADER_LENGTH;
                final long record = ring.claim(recordLength);
                if (record == MpscRing.FULL) {
                    return false;
                }
                final long body = record + HEADER_LENGTH;
                buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET, op.remoteAddress);
                buffer.set(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET, op.remoteKey);
                buffer.set(ValueLayout.JAVA_LONG, body + OP_READ_LENGTH_OFFSET, op.length);
                buffer.set(ValueLayout.JAVA_INT, body + OP_READ_ID_OFFSET, op.id);
                ring.commit(record, RecordDescriptor.TYPE_READ_REQUEST, rank, recordLength);
                return true;
            }
            case RdmaOp.WRITE_ACK -> {
                final long record = ring.claim(HEADER_LENGTH);
                if (record == MpscRing.FULL) {
                    return false;
                }
                buffer.set(ValueLayout.JAVA_INT, record + AUX_OFFSET, op.peerOpId);
                ring.commit(record, RecordDescriptor.TYPE_WRITE_ACK, rank, HEADER_LENGTH);
                return true;
            }
            case RdmaOp.IMMEDIATE -> {
                if (!postImmediate(endpoint, op.immediate)) {
                    return false;
                }
                completeLocally(op.wrId);
                return true;
            }
            default -> throw new IllegalStateException("unknown operation kind " + op.kind);
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
            if (completionCount > 0) {
                work += deliverCompletions();
            }
            if (inbox != null) {
                work += drainInbox();
            }
            if (pumpCount > 0) {
                work += pumpAll();
            }
            if (work == 0 && --idlePassesBeforeClock <= 0) {
                idlePassesBeforeClock = IDLE_PASSES_PER_CLOCK;
                final long now = System.nanoTime();
                if (now - nextLivenessCheck >= 0) {
                    nextLivenessCheck = now + config.livenessIntervalNanos();
                    checkAllPeers();
                }
            }
            if (failuresPending) {
                work += deliverFailures();
            }
            return work;
        } finally {
            inProgress = false;
        }
    }

    /**
     * Sleeps on the inbox's doorbell (a futex in the inbox file) until a peer commits a record,
     * for at most {@code maxNanos}. Does not sleep while local work is pending: completions to
     * deliver return at once, and a backlog towards a full peer inbox (the peer's consumption
     * rings no bell here) lets the runtime park briefly instead.
     */
    @Override
    public WaitSource waitSource() {
        return inbox == null ? null : waitSource;
    }

    private final WaitSource waitSource = new WaitSource() {
        @Override
        public boolean arm() {
            return !closed && pumpCount == 0 && completionCount == 0 && !failuresPending;
        }

        @Override
        public int fd() {
            return -1;
        }

        @Override
        public void sleep(long maxNanos) {
            inbox.sleep(maxNanos);
        }

        @Override
        public void disarm() {
        }
    };

    private int deliverCompletions() {
        int n = 0;
        while (completionCount > 0) {
            final long wrId = completions[completionHead];
            completionHead = (completionHead + 1) % completions.length;
            completionCount--;
            reservedCompletions--;
            n++;
            handler.onComplete(wrId);
        }
        return n;
    }

    private int drainInbox() {
        final MpscRing ring = inbox;
        final MemorySegment buffer = ring.buffer();
        int n = 0;
        while (n < PROGRESS_BATCH) {
            final long record = ring.poll();
            if (record < 0) {
                break;
            }
            final int length = ring.length(record);
            final int type = buffer.get(ValueLayout.JAVA_INT, record + TYPE_OFFSET);
            final int source = buffer.get(ValueLayout.JAVA_INT, record + SOURCE_OFFSET);
            try {
                switch (type) {
                    case RecordDescriptor.TYPE_MESSAGE -> handler.onReceive(source,
                            buffer, record + HEADER_LENGTH, length - HEADER_LENGTH);
                    case RecordDescriptor.TYPE_IMMEDIATE -> handler.onImmediate(source,
                            buffer.get(ValueLayout.JAVA_INT, record + AUX_OFFSET));
                    default -> onRdmaRecord(type, source, buffer, record, length);
                }
            } finally {
                ring.release(record, length);
            }
            n++;
        }
        return n;
    }

    private void onRdmaRecord(int type, int source, MemorySegment buffer, long record, int length) {
        final long body = record + HEADER_LENGTH;
        final long data = body + OP_HEADER_LENGTH;
        final int dataLength = length - HEADER_LENGTH - OP_HEADER_LENGTH;
        switch (type) {
            case RecordDescriptor.TYPE_WRITE_CHUNK -> {
                final long address = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET);
                final long key = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET);
                final int flags = buffer.get(ValueLayout.JAVA_INT, body + OP_WRITE_FLAGS_OFFSET);
                final MemorySegment target = resolve(source, key, address, dataLength, "write");
                copyInOrder(buffer, data, target, dataLength);
                if ((flags & FLAG_LAST) != 0) {
                    if ((flags & FLAG_IMMEDIATE) != 0) {
                        handler.onImmediate(source, buffer.get(ValueLayout.JAVA_INT, record + AUX_OFFSET));
                    }
                    RdmaOp ack = spareOp();
                    ack.kind = RdmaOp.WRITE_ACK;
                    ack.peerOpId = buffer.get(ValueLayout.JAVA_INT, body + OP_WRITE_ID_OFFSET);
                    ShmEndpoint endpoint = endpointFor(source);
                    enqueue(endpoint, ack);
                    pump(endpoint);
                }
            }
            case RecordDescriptor.TYPE_WRITE_ACK -> {
                final RdmaOp op = initiatorOp(buffer.get(ValueLayout.JAVA_INT, record + AUX_OFFSET),
                        RdmaOp.WRITE, source);
                final long wrId = op.wrId;
                releaseOp(op);
                handler.onComplete(wrId);
            }
            case RecordDescriptor.TYPE_READ_REQUEST -> {
                final long address = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_ADDRESS_OFFSET);
                final long key = buffer.get(ValueLayout.JAVA_LONG, body + OP_REMOTE_KEY_OFFSET);
                final long readLength = buffer.get(ValueLayout.JAVA_LONG, body + OP_READ_LENGTH_OFFSET);
                RdmaOp response = spareOp();
                response.kind = RdmaOp.READ_RESPONSE;
                response.local = resolve(source, key, address, readLength, "read");
                response.length = readLength;
                response.peerOpId = buffer.get(ValueLayout.JAVA_INT, body + OP_READ_ID_OFFSET);
                ShmEndpoint endpoint = endpointFor(source);
                enqueue(endpoint, response);
                pump(endpoint);
            }
            case RecordDescriptor.TYPE_READ_CHUNK -> {
                final RdmaOp op = initiatorOp(buffer.get(ValueLayout.JAVA_INT, body + OP_CHUNK_ID_OFFSET),
                        RdmaOp.READ, source);
                final long offset = buffer.get(ValueLayout.JAVA_LONG, body + OP_CHUNK_OFFSET_OFFSET);
                final int flags = buffer.get(ValueLayout.JAVA_INT, body + OP_CHUNK_FLAGS_OFFSET);
                MemorySegment.copy(buffer, data, op.local, offset, dataLength);
                op.offset += dataLength;
                if ((flags & FLAG_LAST) != 0) {
                    if (op.offset != op.length) {
                        throw new IllegalStateException("emulated read from rank " + source
                                + " delivered " + op.offset + " of " + op.length + " bytes");
                    }
                    final long wrId = op.wrId;
                    releaseOp(op);
                    handler.onComplete(wrId);
                }
            }
            default -> throw new IllegalStateException("unknown record type " + type + " from rank "
                    + source + " in the inbox of rank " + rank);
        }
    }

    private MemorySegment resolve(int source, long key, long address, long length, String what) {
        MemorySegment target = registrations.resolve(key, address, length);
        if (target == null) {
            throw new IllegalStateException("rank " + source + " tried to " + what + " " + length
                    + " bytes at 0x" + Long.toHexString(address) + " with key 0x" + Long.toHexString(key)
                    + ", which rank " + rank + " has not registered");
        }
        return target;
    }

    private RdmaOp initiatorOp(int id, int kind, int source) {
        if (id < 0 || id >= ops.length || ops[id].kind != kind) {
            throw new IllegalStateException("rank " + source + " answered unknown operation " + id);
        }
        return ops[id];
    }

    /** Copies all but the last byte, then the last byte with release: IN_ORDER_PLACEMENT. */
    private static void copyInOrder(MemorySegment from, long fromOffset, MemorySegment to, int length) {
        if (length == 0) {
            return;
        }
        MemorySegment.copy(from, fromOffset, to, 0, length - 1);
        BYTE.setRelease(to, (long) length - 1, from.get(ValueLayout.JAVA_BYTE, fromOffset + length - 1));
    }

    // ------------------------------------------------------------------ liveness

    /** Called by an endpoint whose posts keep getting RETRY. */
    void checkPeerIfDue(int peer) {
        final long now = System.nanoTime();
        if (now - nextPeerCheck[peer] >= 0) {
            nextPeerCheck[peer] = now + config.livenessIntervalNanos();
            checkPeer(peer);
        }
    }

    private void checkAllPeers() {
        for (int p = 0; p < peerRings.length; p++) {
            if (peerRings[p] != null) {
                checkPeer(p);
            }
        }
    }

    private void checkPeer(int peer) {
        if (!failed[peer] && !cma.alive(pids[peer])) {
            reportFailure(peer, "process " + pids[peer] + " of rank " + peer + " on this host is gone");
        }
    }

    private void reportFailure(int peer, String reason) {
        if (!failed[peer]) {
            failed[peer] = true;
            failureReasons[peer] = reason;
            failuresPending = true;
        }
    }

    private int deliverFailures() {
        failuresPending = false;
        int n = 0;
        for (int p = 0; p < failureReasons.length; p++) {
            String reason = failureReasons[p];
            if (reason != null) {
                failureReasons[p] = null;
                n++;
                handler.onPeerFailure(p, reason);
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ close

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
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
