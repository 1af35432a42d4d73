package org.verbatim.runtime;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.OperationLimits;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportProvider;

/**
 * A test transport for several ranks in one JVM: bounded in-memory inboxes (so RETRY and the
 * queued-send path are exercised) and RDMA as copies within the shared address space.
 */
public final class LoopbackFabric {
    private final ConcurrentLinkedQueue<Object[]>[] inboxes;
    private final AtomicInteger[] depth;
    private final int capacity;
    private final int maxEager;
    private final boolean immediates;
    /** Entries of a gather write (0: no WRITE_GATHER). */
    private final int gatherIov;
    /** RDMA operations posted on the fabric (all ranks), for tests that check the protocol. */
    public final AtomicLong writes = new AtomicLong();
    public final AtomicLong reads = new AtomicLong();
    public final AtomicLong writesWithImmediate = new AtomicLong();
    public final AtomicLong gatherWrites = new AtomicLong();
    public final AtomicLong registrations = new AtomicLong();
    /** Every n-th RDMA write is refused with RETRY (0: none), to exercise the pending paths. */
    public volatile int refuseEveryWrite;
    /**
     * Messages from this size on arrive as a stream transport's do when the handler places them
     * ({@link CompletionHandler#placement}): the head first, half of the tail in one progress
     * pass, the rest and {@link CompletionHandler#placed} in a later one (0: never).
     */
    public volatile int placeFrom;
    /** While true, a placed message's second half waits (the tests act in between). */
    public volatile boolean holdPlacement;
    /** Messages whose placement started, and those the handler declined (delivered whole). */
    public final AtomicLong placementsStarted = new AtomicLong();
    public final AtomicLong placementsDeclined = new AtomicLong();
    /** The transports' {@link Transport#eagerWindow()} (0: none); set before the job starts. */
    public volatile long eagerWindow;
    private final AtomicLong writePosts = new AtomicLong();
    public final AtomicLong refusedWrites = new AtomicLong();

    private boolean refuseWrite() {
        int n = refuseEveryWrite;
        if (n > 0 && writePosts.incrementAndGet() % n == 0) {
            refusedWrites.incrementAndGet();
            return true;
        }
        return false;
    }
    /** Messages sent and their bytes, by the first byte (the message kind). */
    public final AtomicLong[] messagesByKind = new AtomicLong[256];
    public final AtomicLong[] bytesByKind = new AtomicLong[256];

    public LoopbackFabric(int size, int capacity, int maxEager) {
        this(size, capacity, maxEager, false);
    }

    /** With {@code immediates}, the fabric also advertises and delivers write-with-immediate. */
    @SuppressWarnings("unchecked")
    public LoopbackFabric(int size, int capacity, int maxEager, boolean immediates) {
        this(size, capacity, maxEager, immediates, 0);
    }

    /** With {@code gatherIov > 0}, the fabric also advertises gather writes of that many entries. */
    @SuppressWarnings("unchecked")
    public LoopbackFabric(int size, int capacity, int maxEager, boolean immediates, int gatherIov) {
        this.immediates = immediates;
        this.gatherIov = gatherIov;
        for (int i = 0; i < 256; i++) {
            messagesByKind[i] = new AtomicLong();
            bytesByKind[i] = new AtomicLong();
        }
        inboxes = new ConcurrentLinkedQueue[size];
        depth = new AtomicInteger[size];
        for (int i = 0; i < size; i++) {
            inboxes[i] = new ConcurrentLinkedQueue<>();
            depth[i] = new AtomicInteger();
        }
        this.capacity = capacity;
        this.maxEager = maxEager;
    }

    public TransportProvider provider() {
        return new TransportProvider() {
            @Override
            public String name() {
                return "loop";
            }

            @Override
            public int priority() {
                return 10;
            }

            @Override
            public Optional<String> unavailabilityCause() {
                return Optional.empty();
            }

            @Override
            public Transport open(TransportContext ctx) {
                return new Loop(ctx.rank(), ctx.handler());
            }
        };
    }

    private final class Loop implements Transport {
        private final int rank;
        private final CompletionHandler handler;
        private final ArrayDeque<Long> completions = new ArrayDeque<>();
        /** The message being placed (source, bytes), its destination, and the bytes there. */
        private Object[] placing;
        private MemorySegment placingDest;
        private final Capabilities caps = new Capabilities(flags(),
                new OperationLimits(0, maxEager, 0, 2),
                new OperationLimits(0, 0, 1 << 16, Math.max(1, gatherIov)),
                new OperationLimits(0, 0, 1 << 16, 1), EnumSet.noneOf(AtomicOp.class), 16, 0);

        private EnumSet<Capability> flags() {
            EnumSet<Capability> f = EnumSet.of(Capability.SEND_RECV, Capability.RDMA_READ,
                    Capability.RDMA_WRITE);
            if (immediates) {
                f.add(Capability.WRITE_WITH_IMMEDIATE);
            }
            if (gatherIov > 0) {
                f.add(Capability.WRITE_GATHER);
            }
            return f;
        }

        Loop(int rank, CompletionHandler handler) {
            this.rank = rank;
            this.handler = handler;
        }

        @Override
        public String name() {
            return "loop";
        }

        @Override
        public Capabilities capabilities() {
            return caps;
        }

        @Override
        public long eagerWindow() {
            return eagerWindow;
        }

        @Override
        public boolean reaches(int peer) {
            return peer != rank;
        }

        @Override
        public Endpoint endpoint(int peer) {
            return new Endpoint() {
                @Override
                public int peer() {
                    return peer;
                }

                @Override
                public int send(MemorySegment header, MemorySegment payload) {
                    if (header.byteSize() + payload.byteSize() > maxEager) {
                        throw new IllegalArgumentException("message larger than maxEager");
                    }
                    if (depth[peer].get() >= capacity) {
                        return PostStatus.RETRY;
                    }
                    byte[] m = new byte[(int) (header.byteSize() + payload.byteSize())];
                    MemorySegment ms = MemorySegment.ofArray(m);
                    MemorySegment.copy(header, 0, ms, 0, header.byteSize());
                    MemorySegment.copy(payload, 0, ms, header.byteSize(), payload.byteSize());
                    messagesByKind[m[0] & 0xFF].incrementAndGet();
                    bytesByKind[m[0] & 0xFF].addAndGet(m.length);
                    depth[peer].incrementAndGet();
                    inboxes[peer].add(new Object[] {rank, m});
                    return PostStatus.OK;
                }

                @Override
                public int write(MemorySegment local, long remoteAddress, long key, long wrId) {
                    if (refuseWrite()) {
                        return PostStatus.RETRY;
                    }
                    writes.incrementAndGet();
                    MemorySegment.copy(local, 0, MemorySegment.ofAddress(remoteAddress)
                            .reinterpret(local.byteSize()), 0, local.byteSize());
                    completions.add(wrId);
                    return PostStatus.OK;
                }

                @Override
                public int writeWithImmediate(MemorySegment local, long remoteAddress, long key,
                                              int imm, long wrId) {
                    if (!immediates) {
                        throw new UnsupportedOperationException("no write-with-immediate");
                    }
                    if (refuseWrite()) {
                        return PostStatus.RETRY;
                    }
                    writesWithImmediate.incrementAndGet();
                    MemorySegment.copy(local, 0, MemorySegment.ofAddress(remoteAddress)
                            .reinterpret(local.byteSize()), 0, local.byteSize());
                    inboxes[peer].add(new Object[] {rank, imm});
                    completions.add(wrId);
                    return PostStatus.OK;
                }

                @Override
                public int writeGather(org.verbatim.spi.IoVector local, long remoteAddress,
                                       long key, long wrId) {
                    return gather(local, remoteAddress, wrId, false, 0);
                }

                @Override
                public int writeGatherWithImmediate(org.verbatim.spi.IoVector local,
                                                    long remoteAddress, long key, int imm,
                                                    long wrId) {
                    return gather(local, remoteAddress, wrId, true, imm);
                }

                private int gather(org.verbatim.spi.IoVector local, long remoteAddress, long wrId,
                                   boolean withImmediate, int imm) {
                    if (gatherIov == 0 || local.count() > gatherIov || (withImmediate && !immediates)) {
                        throw new UnsupportedOperationException("gather of " + local.count());
                    }
                    if (refuseWrite()) {
                        return PostStatus.RETRY;
                    }
                    gatherWrites.incrementAndGet();
                    local.gatherInto(MemorySegment.ofAddress(remoteAddress)
                            .reinterpret(local.totalLength()), 0);
                    if (withImmediate) {
                        inboxes[peer].add(new Object[] {rank, imm});
                    }
                    completions.add(wrId);
                    return PostStatus.OK;
                }

                @Override
                public int read(MemorySegment local, long remoteAddress, long key, long wrId) {
                    reads.incrementAndGet();
                    MemorySegment.copy(MemorySegment.ofAddress(remoteAddress)
                            .reinterpret(local.byteSize()), 0, local, 0, local.byteSize());
                    completions.add(wrId);
                    return PostStatus.OK;
                }
            };
        }

        @Override
        public MemoryRegistration register(MemorySegment segment, int access) {
            if (!segment.isNative()) {
                throw new IllegalArgumentException("heap segment");
            }
            registrations.incrementAndGet();
            return new MemoryRegistration() {
                public MemorySegment segment() {
                    return segment;
                }

                public long remoteKey() {
                    return 7;
                }

                public void close() {
                }
            };
        }

        @Override
        public int progress() {
            int work = 0;
            Long c;
            while ((c = completions.poll()) != null) {
                handler.onComplete(c);
                work++;
            }
            if (placing != null) {
                if (holdPlacement) {
                    return work;
                }
                byte[] b = (byte[]) placing[1];
                long tail = placingDest.byteSize();
                long half = tail / 2;
                MemorySegment.copy(MemorySegment.ofArray(b), b.length - tail + half, placingDest,
                        half, tail - half);
                Object[] done = placing;
                placing = null;
                handler.placed((Integer) done[0], MemorySegment.ofArray(b), 0, b.length);
                work++;
            }
            Object[] m;
            while ((m = inboxes[rank].poll()) != null) {
                if (m[1] instanceof Integer imm) {
                    handler.onImmediate((Integer) m[0], imm);
                    work++;
                    continue;
                }
                depth[rank].decrementAndGet();
                byte[] b = (byte[]) m[1];
                if (placeFrom > 0 && b.length >= placeFrom) {
                    MemorySegment dest = handler.placement((Integer) m[0], MemorySegment.ofArray(b),
                            0, CompletionHandler.PLACEMENT_HEAD, b.length);
                    if (dest != null) {
                        placementsStarted.incrementAndGet();
                        long tail = dest.byteSize();
                        MemorySegment.copy(MemorySegment.ofArray(b), b.length - tail, dest, 0, tail / 2);
                        placing = m;
                        placingDest = dest;
                        return work + 1; // the rest arrives in a later pass
                    }
                    placementsDeclined.incrementAndGet();
                }
                handler.onReceive((Integer) m[0], MemorySegment.ofArray(b));
                work++;
            }
            return work;
        }

        @Override
        public java.util.List<org.verbatim.spi.ProfileCounter> profileCounters() {
            return java.util.List.of(org.verbatim.spi.ProfileCounter.sum("posts", rank + 1),
                    org.verbatim.spi.ProfileCounter.max("highest rank", rank),
                    org.verbatim.spi.ProfileCounter.sumAndMax("memory", "KiB", 10L * rank));
        }

        @Override
        public void close() {
        }
    }
}
