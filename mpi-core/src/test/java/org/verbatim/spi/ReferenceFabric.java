package org.verbatim.spi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A reference transport with every optional operation, for ranks that are threads of one JVM: it
 * checks the conformance suite itself, both ways. Run correct, it must pass every section (so a
 * section that fails is the suite's bug); run with a {@link Defect}, the section written for that
 * defect must fail (so the section can fail). Native mode does one-sided operations in the
 * initiator's thread at post time, checked against the target's key table; emulated mode sends
 * them to the target's inbox, where the target's progress carries them out.
 */
final class ReferenceFabric implements TransportProvider {
    /** Deliberate bugs, one per contract the suite must catch. */
    enum Defect {
        /** Operations ignore keys, ranges and access rights. */
        NO_ACCESS_CHECK,
        /** An aborted claim is sent anyway. */
        ABORT_DELIVERS,
        /** Advertised emulated, but done at post time without the target. */
        EMULATED_BUT_SYNCHRONOUS,
        /** Fetch-and-add returns the new value instead of the old one. */
        FETCH_RETURNS_NEW,
        /** Requests posted through a list complete twice. */
        LIST_COMPLETES_TWICE,
        /** A gather write leaves out its last entry. */
        GATHER_DROPS_LAST_ENTRY,
        /**
         * Native writes are placed only when their completion is delivered (one per progress
         * call), and a flush completes ahead of them.
         */
        FLUSH_EARLY
    }

    static final int MAX_EAGER = 2048;
    private static final int INBOX_MESSAGES = 64;
    private static final int IN_FLIGHT = 16;
    private static final int MAX_IOV = 64;
    private static final int MAX_LIST = 32;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final Map<String, Job> JOBS = new ConcurrentHashMap<>();

    private final boolean emulated;
    private final Set<Defect> defects;

    ReferenceFabric(boolean emulated, Defect... defects) {
        this.emulated = emulated;
        this.defects = defects.length == 0 ? EnumSet.noneOf(Defect.class) : EnumSet.of(defects[0], defects);
    }

    @Override
    public String name() {
        return "reference";
    }

    @Override
    public int priority() {
        return 99;
    }

    @Override
    public Optional<String> unavailabilityCause() {
        return Optional.empty();
    }

    @Override
    public Transport open(TransportContext context) {
        Job job = JOBS.computeIfAbsent(context.bootstrap().jobId(), id -> new Job(context.size()));
        return new Node(job, context.bootstrap().jobId(), context.rank(), context.handler());
    }

    private record Registered(MemorySegment segment, int access) { }

    private record Message(int source, byte[] bytes) { }

    private record Immediate(int source, int immediate) { }

    private record Request(int source, Op op) { }

    private record Done(long wrId, int status) { }

    /** A completion to deliver at the next progress; {@code deferred} is placed first. */
    private record Pending(long wrId, int status, boolean counted, int peer, Op deferred) { }

    /** One one-sided operation: its local side is fixed at post time. */
    private static final class Op {
        int kind;
        MemorySegment[] local;
        long remoteAddress;
        long remoteKey;
        long operand;
        long desired;
        boolean withImmediate;
        int immediate;
        long wrId;

        long length() {
            long n = 0;
            for (MemorySegment s : local) {
                n += s.byteSize();
            }
            return n;
        }
    }

    private static final int WRITE = 1;
    private static final int READ = 2;
    private static final int FETCH_AND_ADD = 3;
    private static final int COMPARE_AND_SWAP = 4;
    private static final int FLUSH = 5;

    private static final class Job {
        final ConcurrentLinkedQueue<Object>[] inboxes;
        final AtomicInteger[] messages;
        final Map<Long, Registered>[] keys;
        final AtomicLong nextKey = new AtomicLong(0x1000);
        final AtomicInteger open;

        @SuppressWarnings("unchecked")
        Job(int size) {
            inboxes = new ConcurrentLinkedQueue[size];
            messages = new AtomicInteger[size];
            keys = new Map[size];
            for (int i = 0; i < size; i++) {
                inboxes[i] = new ConcurrentLinkedQueue<>();
                messages[i] = new AtomicInteger();
                keys[i] = new ConcurrentHashMap<>();
            }
            open = new AtomicInteger(size);
        }
    }

    private final class Node implements Transport {
        private final Job job;
        private final String jobId;
        private final int rank;
        private final CompletionHandler handler;
        private final ArrayDeque<Pending> completions = new ArrayDeque<>();
        private final Endpoint[] endpoints;
        private final Capabilities caps;
        private int outstanding;
        private boolean closed;

        Node(Job job, String jobId, int rank, CompletionHandler handler) {
            this.job = job;
            this.jobId = jobId;
            this.rank = rank;
            this.handler = handler;
            this.endpoints = new Endpoint[job.inboxes.length];
            Capabilities.Builder b = Capabilities.builder()
                    .flag(Capability.SEND_RECV, Capability.RDMA_WRITE, Capability.RDMA_READ,
                            Capability.WRITE_WITH_IMMEDIATE, Capability.ATOMICS, Capability.LIST_POST,
                            Capability.WRITE_GATHER, Capability.READ_SCATTER, Capability.FLUSH,
                            Capability.EAGER_CLAIM)
                    .send(new OperationLimits(0, MAX_EAGER, 0, 2))
                    .put(new OperationLimits(0, 0, 1L << 26, MAX_IOV))
                    .get(new OperationLimits(0, 0, 1L << 26, MAX_IOV))
                    .atomics(AtomicOp.FETCH_AND_ADD, AtomicOp.COMPARE_AND_SWAP)
                    .readsInFlight(IN_FLIGHT).maxListPost(MAX_LIST);
            if (emulated) {
                b.flag(Capability.RDMA_WRITE_EMULATED, Capability.RDMA_READ_EMULATED, Capability.ATOMICS_EMULATED);
            }
            caps = b.build();
        }

        @Override
        public String name() {
            return "reference";
        }

        @Override
        public Capabilities capabilities() {
            return caps;
        }

        @Override
        public boolean reaches(int peer) {
            return peer != rank && peer >= 0 && peer < endpoints.length;
        }

        @Override
        public Endpoint endpoint(int peer) {
            if (!reaches(peer)) {
                throw new IllegalArgumentException("no way to rank " + peer);
            }
            if (endpoints[peer] == null) {
                endpoints[peer] = new Way(this, peer);
            }
            return endpoints[peer];
        }

        @Override
        public MemoryRegistration register(MemorySegment segment, int access) {
            if (!segment.isNative()) {
                throw new IllegalArgumentException("only native memory can be registered");
            }
            long key = job.nextKey.getAndIncrement();
            job.keys[rank].put(key, new Registered(segment, access));
            return new MemoryRegistration() {
                @Override
                public MemorySegment segment() {
                    return segment;
                }

                @Override
                public long remoteKey() {
                    return key;
                }

                @Override
                public void close() {
                    job.keys[rank].remove(key);
                }
            };
        }

        /** Posts {@code op} to {@code peer}: done now (native) or sent to the target (emulated). */
        int post(int peer, Op op) {
            if (outstanding == IN_FLIGHT) {
                return PostStatus.RETRY;
            }
            outstanding++;
            if (emulated && !defects.contains(Defect.EMULATED_BUT_SYNCHRONOUS)) {
                job.inboxes[peer].add(new Request(rank, op));
            } else if (defects.contains(Defect.FLUSH_EARLY) && op.kind == WRITE) {
                completions.add(new Pending(op.wrId, CompletionStatus.OK, true, peer, op));
            } else if (defects.contains(Defect.FLUSH_EARLY) && op.kind == FLUSH) {
                completions.addFirst(new Pending(op.wrId, CompletionStatus.OK, true, peer, null));
            } else {
                completions.add(new Pending(op.wrId, execute(rank, peer, op), true, peer, null));
            }
            return PostStatus.OK;
        }

        /** Carries out {@code source}'s {@code op} on {@code target}'s memory; returns the status. */
        private int execute(int source, int target, Op op) {
            if (op.kind == FLUSH) {
                return CompletionStatus.OK;
            }
            int needed = switch (op.kind) {
                case WRITE -> Access.REMOTE_WRITE;
                case READ -> Access.REMOTE_READ;
                default -> Access.REMOTE_ATOMIC;
            };
            long length = op.kind == WRITE || op.kind == READ ? op.length() : 8;
            MemorySegment remote;
            Registered reg = job.keys[target].get(op.remoteKey);
            if (defects.contains(Defect.NO_ACCESS_CHECK)) {
                remote = MemorySegment.ofAddress(op.remoteAddress).reinterpret(length);
            } else {
                long offset = reg == null ? -1 : op.remoteAddress - reg.segment().address();
                if (reg == null || !Access.allows(reg.access(), needed) || offset < 0
                        || offset > reg.segment().byteSize() - length) {
                    return CompletionStatus.REMOTE_ACCESS_ERROR;
                }
                remote = reg.segment().asSlice(offset, length);
            }
            if (needed == Access.REMOTE_ATOMIC && (op.remoteAddress & 7) != 0) {
                return CompletionStatus.REMOTE_OPERATION_ERROR;
            }
            switch (op.kind) {
                case WRITE -> {
                    long at = 0;
                    for (MemorySegment s : op.local) {
                        MemorySegment.copy(s, 0, remote, at, s.byteSize());
                        at += s.byteSize();
                    }
                    if (op.withImmediate) {
                        job.inboxes[target].add(new Immediate(source, op.immediate));
                    }
                }
                case READ -> {
                    long at = 0;
                    for (MemorySegment s : op.local) {
                        MemorySegment.copy(remote, at, s, 0, s.byteSize());
                        at += s.byteSize();
                    }
                }
                case FETCH_AND_ADD -> {
                    long old = (long) LONG.getAndAdd(remote, 0L, op.operand);
                    op.local[0].set(ValueLayout.JAVA_LONG, 0,
                            defects.contains(Defect.FETCH_RETURNS_NEW) ? old + op.operand : old);
                }
                case COMPARE_AND_SWAP -> op.local[0].set(ValueLayout.JAVA_LONG, 0,
                        (long) LONG.compareAndExchange(remote, 0L, op.operand, op.desired));
                default -> throw new IllegalStateException("kind " + op.kind);
            }
            return CompletionStatus.OK;
        }

        @Override
        public int progress() {
            int work = 0;
            Pending c;
            while ((c = completions.poll()) != null) {
                int status = c.deferred() == null ? c.status() : execute(rank, c.peer(), c.deferred());
                outstanding -= c.counted() ? 1 : 0;
                handler.onComplete(c.wrId(), status);
                work++;
                if (defects.contains(Defect.FLUSH_EARLY)) {
                    return work;
                }
            }
            Object item;
            while (work < 256 && (item = job.inboxes[rank].poll()) != null) {
                work++;
                switch (item) {
                    case Message m -> {
                        job.messages[rank].decrementAndGet();
                        handler.onReceive(m.source(), MemorySegment.ofArray(m.bytes()));
                    }
                    case Immediate i -> handler.onImmediate(i.source(), i.immediate());
                    case Request q -> job.inboxes[q.source()].add(new Done(q.op().wrId, execute(q.source(), rank, q.op())));
                    case Done d -> {
                        outstanding--;
                        handler.onComplete(d.wrId(), d.status());
                    }
                    default -> throw new IllegalStateException("unknown item " + item);
                }
            }
            return work;
        }

        /** Reserves room for one message in {@code peer}'s inbox. */
        boolean reserve(int peer) {
            if (job.messages[peer].incrementAndGet() > INBOX_MESSAGES) {
                job.messages[peer].decrementAndGet();
                return false;
            }
            return true;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                if (job.open.decrementAndGet() == 0) {
                    JOBS.remove(jobId);
                }
            }
        }

        void completeAgain(long wrId) {
            completions.add(new Pending(wrId, CompletionStatus.OK, false, 0, null));
        }
    }

    private final class Way implements Endpoint, EagerClaim.Owner {
        private final Node node;
        private final int peer;
        private MemorySegment claimed;

        Way(Node node, int peer) {
            this.node = node;
            this.peer = peer;
        }

        @Override
        public int peer() {
            return peer;
        }

        @Override
        public int send(MemorySegment header, MemorySegment payload) {
            long n = header.byteSize() + payload.byteSize();
            if (n > MAX_EAGER) {
                throw new IllegalArgumentException(n + " bytes exceed maxEager " + MAX_EAGER);
            }
            if (!node.reserve(peer)) {
                return PostStatus.RETRY;
            }
            byte[] m = new byte[(int) n];
            MemorySegment.copy(header, 0, MemorySegment.ofArray(m), 0, header.byteSize());
            MemorySegment.copy(payload, 0, MemorySegment.ofArray(m), header.byteSize(), payload.byteSize());
            node.job.inboxes[peer].add(new Message(node.rank, m));
            return PostStatus.OK;
        }

        @Override
        public int claim(int length, EagerClaim claim) {
            if (length > MAX_EAGER) {
                throw new IllegalArgumentException(length + " bytes exceed maxEager " + MAX_EAGER);
            }
            if (!node.reserve(peer)) {
                return PostStatus.RETRY;
            }
            claimed = MemorySegment.ofArray(new byte[length + 13]);
            claim.wrap(this, claimed, 13, length, 0);
            return PostStatus.OK;
        }

        @Override
        public void commit(EagerClaim claim) {
            // the claim's own accessors refuse once it is no longer active: use what we handed out
            byte[] m = claimed.asSlice(13, claim.length()).toArray(ValueLayout.JAVA_BYTE);
            claimed = null;
            node.job.inboxes[peer].add(new Message(node.rank, m));
        }

        @Override
        public void abort(EagerClaim claim) {
            if (defects.contains(Defect.ABORT_DELIVERS)) {
                commit(claim);
            } else {
                claimed = null;
                node.job.messages[peer].decrementAndGet();
            }
        }

        private Op op(int kind, long remoteAddress, long remoteKey, long wrId, MemorySegment... local) {
            for (MemorySegment s : local) {
                if (!s.isNative()) {
                    throw new IllegalArgumentException("RDMA needs native memory");
                }
            }
            Op op = new Op();
            op.kind = kind;
            op.local = local;
            op.remoteAddress = remoteAddress;
            op.remoteKey = remoteKey;
            op.wrId = wrId;
            return op;
        }

        @Override
        public int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
            return node.post(peer, op(WRITE, remoteAddress, remoteKey, wrId, local));
        }

        @Override
        public int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey, int immediate,
                                      long wrId) {
            Op op = op(WRITE, remoteAddress, remoteKey, wrId, local);
            op.withImmediate = true;
            op.immediate = immediate;
            return node.post(peer, op);
        }

        @Override
        public int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
            return node.post(peer, op(READ, remoteAddress, remoteKey, wrId, local));
        }

        private MemorySegment[] entries(IoVector v) {
            if (v.count() > MAX_IOV) {
                throw new IllegalArgumentException(v.count() + " entries exceed maxIov " + MAX_IOV);
            }
            int n = defects.contains(Defect.GATHER_DROPS_LAST_ENTRY) && v.count() > 1 ? v.count() - 1 : v.count();
            MemorySegment[] entries = new MemorySegment[n];
            for (int i = 0; i < n; i++) {
                entries[i] = v.segment(i).asSlice(v.offset(i), v.length(i));
            }
            return entries;
        }

        @Override
        public int writeGather(IoVector local, long remoteAddress, long remoteKey, long wrId) {
            return node.post(peer, op(WRITE, remoteAddress, remoteKey, wrId, entries(local)));
        }

        @Override
        public int writeGatherWithImmediate(IoVector local, long remoteAddress, long remoteKey, int immediate,
                                            long wrId) {
            Op op = op(WRITE, remoteAddress, remoteKey, wrId, entries(local));
            op.withImmediate = true;
            op.immediate = immediate;
            return node.post(peer, op);
        }

        @Override
        public int readScatter(IoVector local, long remoteAddress, long remoteKey, long wrId) {
            return node.post(peer, op(READ, remoteAddress, remoteKey, wrId, entries(local)));
        }

        @Override
        public int postList(WorkList list, int from) {
            if (list.count() - from > MAX_LIST) {
                throw new IllegalArgumentException((list.count() - from) + " requests exceed maxListPost");
            }
            int posted = list.postEach(this, from);
            if (defects.contains(Defect.LIST_COMPLETES_TWICE)) {
                for (int i = from; i < from + posted; i++) {
                    node.completeAgain(list.wrId(i));
                }
            }
            return posted;
        }

        @Override
        public int fetchAndAdd(MemorySegment result, long remoteAddress, long remoteKey, long add, long wrId) {
            Op op = op(FETCH_AND_ADD, remoteAddress, remoteKey, wrId, result);
            op.operand = add;
            return node.post(peer, op);
        }

        @Override
        public int compareAndSwap(MemorySegment result, long remoteAddress, long remoteKey, long expected,
                                  long desired, long wrId) {
            Op op = op(COMPARE_AND_SWAP, remoteAddress, remoteKey, wrId, result);
            op.operand = expected;
            op.desired = desired;
            return node.post(peer, op);
        }

        @Override
        public int flush(long wrId) {
            return node.post(peer, op(FLUSH, 0, 0, wrId));
        }
    }
}
