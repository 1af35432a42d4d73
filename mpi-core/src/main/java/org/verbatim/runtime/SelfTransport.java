package org.verbatim.runtime;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.EnumSet;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.OperationLimits;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.Transport;

/**
 * Messages a process sends to itself: queued in a {@link LoopbackQueue} (no allocation per
 * message) and delivered on the next progress pass (never inside the send call, so matching
 * order is the same as for any other transport). RDMA is a copy within the address space.
 */
public final class SelfTransport implements Transport, Endpoint {
    private final int rank;
    private final CompletionHandler handler;
    private final LoopbackQueue inbox = new LoopbackQueue();
    private final ArrayDeque<long[]> completions = new ArrayDeque<>();
    private final Capabilities capabilities = Capabilities.builder()
            .flag(Capability.SEND_RECV, Capability.RDMA_READ, Capability.RDMA_WRITE,
                    Capability.WRITE_WITH_IMMEDIATE, Capability.IN_ORDER_PLACEMENT)
            .send(new OperationLimits(0, 1 << 20, 0, 2))
            .put(new OperationLimits(0, 0, Long.MAX_VALUE >> 1, 1))
            .get(new OperationLimits(0, 0, Long.MAX_VALUE >> 1, 1))
            .readsInFlight(Integer.MAX_VALUE)
            .build();

    public SelfTransport(int rank, CompletionHandler handler) {
        this.rank = rank;
        this.handler = handler;
    }

    @Override
    public String name() {
        return "self";
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    @Override
    public boolean reaches(int peer) {
        return peer == rank;
    }

    @Override
    public Endpoint endpoint(int peer) {
        return this;
    }

    @Override
    public int peer() {
        return rank;
    }

    @Override
    public MemoryRegistration register(MemorySegment segment, int access) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("only native memory can be registered");
        }
        return new MemoryRegistration() {
            @Override
            public MemorySegment segment() {
                return segment;
            }

            @Override
            public long remoteKey() {
                return 0;
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public int send(MemorySegment header, MemorySegment payload) {
        inbox.add(header, payload);
        return PostStatus.OK;
    }

    private static MemorySegment at(long address, long length) {
        return MemorySegment.ofAddress(address).reinterpret(length);
    }

    @Override
    public int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        MemorySegment.copy(local, 0, at(remoteAddress, local.byteSize()), 0, local.byteSize());
        completions.add(new long[] {wrId, 0, 0});
        return PostStatus.OK;
    }

    @Override
    public int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey,
                                  int immediate, long wrId) {
        MemorySegment.copy(local, 0, at(remoteAddress, local.byteSize()), 0, local.byteSize());
        completions.add(new long[] {wrId, 1, immediate});
        return PostStatus.OK;
    }

    @Override
    public int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        MemorySegment.copy(at(remoteAddress, local.byteSize()), 0, local, 0, local.byteSize());
        completions.add(new long[] {wrId, 0, 0});
        return PostStatus.OK;
    }

    @Override
    public int progress() {
        int work = 0;
        // isEmpty first: this runs on every progress pass, mostly with nothing queued
        for (int n = completions.isEmpty() ? 0 : completions.size(); n > 0; n--) {
            long[] c = completions.poll();
            if (c[1] == 1) {
                handler.onImmediate(rank, (int) c[2]);
            }
            handler.onComplete(c[0]);
            work++;
        }
        return work + inbox.deliver(rank, handler);
    }

    @Override
    public void close() {
        inbox.clear();
        completions.clear();
    }
}
