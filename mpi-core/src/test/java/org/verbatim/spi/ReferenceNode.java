package org.verbatim.spi;

import static org.verbatim.spi.ReferenceFabric.COMPARE_AND_SWAP;
import static org.verbatim.spi.ReferenceFabric.FETCH_AND_ADD;
import static org.verbatim.spi.ReferenceFabric.FLUSH;
import static org.verbatim.spi.ReferenceFabric.INBOX_MESSAGES;
import static org.verbatim.spi.ReferenceFabric.IN_FLIGHT;
import static org.verbatim.spi.ReferenceFabric.JOBS;
import static org.verbatim.spi.ReferenceFabric.LONG;
import static org.verbatim.spi.ReferenceFabric.MAX_EAGER;
import static org.verbatim.spi.ReferenceFabric.MAX_IOV;
import static org.verbatim.spi.ReferenceFabric.MAX_LIST;
import static org.verbatim.spi.ReferenceFabric.READ;
import static org.verbatim.spi.ReferenceFabric.WRITE;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayDeque;
import org.verbatim.spi.ReferenceFabric.Defect;
import org.verbatim.spi.ReferenceFabric.Done;
import org.verbatim.spi.ReferenceFabric.Immediate;
import org.verbatim.spi.ReferenceFabric.Job;
import org.verbatim.spi.ReferenceFabric.Message;
import org.verbatim.spi.ReferenceFabric.Op;
import org.verbatim.spi.ReferenceFabric.Pending;
import org.verbatim.spi.ReferenceFabric.Registered;
import org.verbatim.spi.ReferenceFabric.Request;

/** One rank's side of the {@link ReferenceFabric}: registrations, posting, progress. */
final class ReferenceNode implements Transport {
    private final ReferenceFabric fabric;
    final Job job;
    private final String jobId;
    final int rank;
    private final CompletionHandler handler;
    private final ArrayDeque<Pending> completions = new ArrayDeque<>();
    private final Endpoint[] endpoints;
    private final Capabilities caps;
    private int outstanding;
    private boolean closed;

    ReferenceNode(ReferenceFabric fabric, Job job, String jobId, int rank, CompletionHandler handler) {
        this.fabric = fabric;
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
        if (fabric.emulated) {
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
            endpoints[peer] = new ReferenceEndpoint(fabric, this, peer);
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

    /** Posts {@code op} to {@code peer}: done now (native) or sent to the target (fabric.emulated). */
    int post(int peer, Op op) {
        if (outstanding == IN_FLIGHT) {
            return PostStatus.RETRY;
        }
        outstanding++;
        if (fabric.emulated && !fabric.defects.contains(Defect.EMULATED_BUT_SYNCHRONOUS)
                || fabric.defects.contains(Defect.NATIVE_BUT_TARGET_DOES_IT)) {
            job.inboxes[peer].add(new Request(rank, op));
        } else if (fabric.defects.contains(Defect.FLUSH_EARLY) && op.kind == WRITE) {
            completions.add(new Pending(op.wrId, CompletionStatus.OK, true, peer, op));
        } else if (fabric.defects.contains(Defect.FLUSH_EARLY) && op.kind == FLUSH) {
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
        if (fabric.defects.contains(Defect.NO_ACCESS_CHECK)) {
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
                        fabric.defects.contains(Defect.FETCH_RETURNS_NEW) ? old + op.operand : old);
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
            if (fabric.defects.contains(Defect.FLUSH_EARLY)) {
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
