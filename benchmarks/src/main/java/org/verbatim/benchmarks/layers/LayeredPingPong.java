package org.verbatim.benchmarks.layers;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import org.verbatim.spi.Endpoint;

/**
 * Where an 8-byte ping-pong's time goes, by layers, in one job: the same round trips through
 * the full MPI path ({@code Comm.send}/{@code recv} on a direct buffer) and through the engine's
 * progress pass and the transport alone ({@link RawMessages}: an endpoint send of an 8-byte
 * header and the payload, a handler that counts), alternated in blocks so that both meet the
 * machine in the same phases. The difference is the MPI layers' cost on the critical path
 * (API checks, buffer resolution, matching, the receive object and the returned Status).
 *
 * <p>Usage: {@code LayeredPingPong [size=8] [warmup=200000] [timed=200000] [blocks=10]}; 2 ranks.
 */
public final class LayeredPingPong {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        int timed = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        int blocks = args.length > 3 ? Integer.parseInt(args[3]) : 10;
        Comm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        RawMessages raw = RawMessages.get();
        if (comm.getSize() != 2 || raw == null) {
            throw new IllegalStateException("LayeredPingPong: 2 ranks and the bench-raw extension");
        }
        int peer = 1 - rank;
        ByteBuffer buf = MPI.newByteBuffer(size);
        MemorySegment payload = MemorySegment.ofBuffer(buf);
        Endpoint e = raw.endpoint(peer);
        mpi(comm, rank, buf, size, warmup);
        rawTrips(raw, e, rank, payload, warmup);
        long per = Math.max(1, timed / blocks);
        long mpiNanos = 0;
        long rawNanos = 0;
        for (int b = 0; b < blocks; b++) {
            comm.barrier();
            long t0 = System.nanoTime();
            mpi(comm, rank, buf, size, per);
            long t1 = System.nanoTime();
            rawTrips(raw, e, rank, payload, per);
            long t2 = System.nanoTime();
            mpiNanos += t1 - t0;
            rawNanos += t2 - t1;
        }
        if (rank == 0) {
            double m = mpiNanos / 1e3 / (per * blocks) / 2;
            double r = rawNanos / 1e3 / (per * blocks) / 2;
            System.out.printf("size %d B, %d x %d round trips: MPI send/recv %.3f us, engine+transport %.3f us"
                    + " per half round trip; MPI layers %.0f ns per message%n", size, blocks, per, m, r,
                    (m - r) * 1e3);
        }
        MPI.Finalize();
    }

    private static void mpi(Comm comm, int rank, ByteBuffer buf, int size, long trips)
            throws MPIException {
        for (long i = 0; i < trips; i++) {
            if (rank == 0) {
                comm.send(buf, size, MPI.BYTE, 1, 1);
                comm.recv(buf, size, MPI.BYTE, 1, 1);
            } else {
                comm.recv(buf, size, MPI.BYTE, 0, 1);
                comm.send(buf, size, MPI.BYTE, 0, 1);
            }
        }
    }

    private static void rawTrips(RawMessages raw, Endpoint e, int rank, MemorySegment payload,
                                 long trips) {
        long base = raw.received;
        for (long i = 1; i <= trips; i++) {
            if (rank == 0) {
                raw.send(e, payload);
                raw.awaitReceived(base + i);
            } else {
                raw.awaitReceived(base + i);
                raw.send(e, payload);
            }
        }
    }
}
