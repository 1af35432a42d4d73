package org.verbatim.spi.support;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Capability;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.OperationLimits;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.Transport;

/**
 * A minimal send-only transport for tests, in one JVM: a bounded queue per (receiver, sender)
 * pair, {@link PostStatus#RETRY} when it is full, and a small maxEager, so that everything the
 * emulation does is chunked and back-pressured. RDMA comes only from the {@link RdmaEmulation}
 * wired in, exactly as a real send-only transport (tcp) would wire it.
 */
final class QueueTransport implements Transport {
    /** The queues of one job: {@code queues[receiver][sender]}. */
    static final class Fabric {
        final ArrayBlockingQueue<byte[]>[][] queues;
        final int maxEager;

        @SuppressWarnings("unchecked")
        Fabric(int size, int maxEager, int capacity) {
            this.maxEager = maxEager;
            queues = new ArrayBlockingQueue[size][size];
            for (int r = 0; r < size; r++) {
                for (int s = 0; s < size; s++) {
                    queues[r][s] = new ArrayBlockingQueue<>(capacity);
                }
            }
        }
    }

    private static final Map<String, Fabric> FABRICS = new ConcurrentHashMap<>();

    private final int rank;
    private final Fabric fabric;
    private final RdmaEmulation emulation;
    private final Capabilities capabilities;
    private final CompletionHandler handler;
    /** Messages delivered per progress call and sender. */
    private static final int BATCH = 16;

    QueueTransport(int rank, Fabric fabric, CompletionHandler runtimeHandler, int maxOperations) {
        this.rank = rank;
        this.fabric = fabric;
        int size = fabric.queues.length;
        this.emulation = new RdmaEmulation(runtimeHandler, size, fabric.maxEager, RawEndpoint::new,
                maxOperations, RdmaEmulation.DEFAULT_MAX_IOV);
        this.handler = emulation.handler();
        Capabilities raw = Capabilities.builder().flag(Capability.SEND_RECV)
                .send(new OperationLimits(0, fabric.maxEager, 0, 2)).build();
        this.capabilities = emulation.capabilities(raw);
    }

    /** The fabric of job {@code jobId}, made by whichever rank opens first. */
    static Fabric fabric(String jobId, int size, int maxEager, int capacity) {
        return FABRICS.computeIfAbsent(jobId, k -> new Fabric(size, maxEager, capacity));
    }

    static void forget(String jobId) {
        FABRICS.remove(jobId);
    }

    RdmaEmulation emulation() {
        return emulation;
    }

    @Override
    public String name() {
        return QueueTransportProvider.NAME;
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    @Override
    public boolean reaches(int peer) {
        return peer != rank && peer >= 0 && peer < fabric.queues.length;
    }

    @Override
    public EmulatedEndpoint endpoint(int peer) {
        return emulation.endpoint(peer);
    }

    @Override
    public MemoryRegistration register(MemorySegment segment, int access) {
        return emulation.register(segment, access);
    }

    @Override
    public int progress() {
        int work = 0;
        ArrayBlockingQueue<byte[]>[] inbound = fabric.queues[rank];
        for (int source = 0; source < inbound.length; source++) {
            for (int i = 0; i < BATCH; i++) {
                byte[] message = inbound[source].poll();
                if (message == null) {
                    break;
                }
                handler.onReceive(source, MemorySegment.ofArray(message));
                work++;
            }
        }
        return work + emulation.progress();
    }

    @Override
    public void close() {
    }

    /** The send-only endpoint underneath: copies into the receiver's queue, or RETRY. */
    private final class RawEndpoint implements Endpoint {
        private final int peer;

        RawEndpoint(int peer) {
            this.peer = peer;
        }

        @Override
        public int peer() {
            return peer;
        }

        @Override
        public int send(MemorySegment header, MemorySegment payload) {
            long length = header.byteSize() + payload.byteSize();
            if (length > fabric.maxEager) {
                throw new IllegalArgumentException(length + " bytes exceed maxEager " + fabric.maxEager);
            }
            byte[] message = new byte[(int) length];
            MemorySegment m = MemorySegment.ofArray(message);
            MemorySegment.copy(header, 0, m, 0, header.byteSize());
            MemorySegment.copy(payload, 0, m, header.byteSize(), payload.byteSize());
            return fabric.queues[peer][rank].offer(message) ? PostStatus.OK : PostStatus.RETRY;
        }

        @Override
        public int write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
            throw new UnsupportedOperationException("send-only");
        }

        @Override
        public int writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey,
                                      int immediate, long wrId) {
            throw new UnsupportedOperationException("send-only");
        }

        @Override
        public int read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
            throw new UnsupportedOperationException("send-only");
        }
    }
}
