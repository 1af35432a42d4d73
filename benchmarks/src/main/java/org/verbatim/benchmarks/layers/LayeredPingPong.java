package org.verbatim.benchmarks.layers;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import org.verbatim.runtime.Engine;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.p2p.PointToPoint;
import org.verbatim.spi.Endpoint;

/**
 * Where an 8-byte ping-pong's time goes, by layers, in one job: the same round trips through
 * the full MPI path ({@code Comm.send}/{@code recv} on a direct buffer) and through the engine's
 * progress pass and the transport alone ({@link RawMessages}: an endpoint send of an 8-byte
 * header and the payload, a handler that counts), alternated in blocks so that both meet the
 * machine in the same phases. The difference is the MPI layers' cost on the critical path
 * (API checks, buffer resolution, matching, the receive object and the returned Status); a third
 * path calls the protocol's blocking fast paths ({@code PointToPoint.sendNow},
 * {@code receiveBlocking}) directly, which splits that cost into the API layer above the protocol
 * and the protocol layer (matching, the receive object) above the engine.
 *
 * <p>Usage: {@code bin/mpirun -np 2 -Dorg.verbatim.benchmarks.rawMessages=true -cp <benchmarks jar>
 * org.verbatim.benchmarks.layers.LayeredPingPong [size=8] [warmup=200000] [timed=200000]
 * [blocks=10]}.
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
            throw new IllegalStateException("LayeredPingPong: needs 2 ranks and the JVM option -D"
                    + RawMessages.ENABLE + "=true (bin/mpirun -np 2 -D" + RawMessages.ENABLE
                    + "=true -cp ...)");
        }
        int peer = 1 - rank;
        ByteBuffer buf = MPI.newByteBuffer(size);
        MemorySegment payload = MemorySegment.ofBuffer(buf);
        Endpoint e = raw.endpoint(peer);
        Engine engine = raw.engine();
        mpi(comm, rank, buf, size, warmup);
        p2p(engine, rank, payload, warmup);
        rawTrips(raw, e, rank, payload, warmup);
        long per = Math.max(1, timed / blocks);
        long mpiNanos = 0;
        long p2pNanos = 0;
        long rawNanos = 0;
        for (int b = 0; b < blocks; b++) {
            comm.barrier();
            long t0 = System.nanoTime();
            mpi(comm, rank, buf, size, per);
            long t1 = System.nanoTime();
            p2p(engine, rank, payload, per);
            long t2 = System.nanoTime();
            rawTrips(raw, e, rank, payload, per);
            long t3 = System.nanoTime();
            mpiNanos += t1 - t0;
            p2pNanos += t2 - t1;
            rawNanos += t3 - t2;
        }
        if (rank == 0) {
            double m = mpiNanos / 1e3 / (per * blocks) / 2;
            double p = p2pNanos / 1e3 / (per * blocks) / 2;
            double r = rawNanos / 1e3 / (per * blocks) / 2;
            System.out.printf("size %d B, %d x %d round trips, us per half round trip: MPI send/recv %.3f,"
                    + " protocol (PointToPoint) %.3f, engine+transport %.3f; per message: API layer %.0f ns,"
                    + " protocol layer %.0f ns%n", size, blocks, per, m, p, r, (m - p) * 1e3, (p - r) * 1e3);
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

    /** The point-to-point protocol's blocking fast paths, below the API (COMM_WORLD is context 0). */
    private static void p2p(Engine engine, int rank, MemorySegment data, long trips) {
        PointToPoint p = engine.p2p();
        int peer = 1 - rank;
        for (long i = 0; i < trips; i++) {
            if (rank == 1) {
                engine.await(p.receiveBlocking(0, peer, 1, data, null, null));
            }
            if (!p.sendNow(0, rank, peer, 1, data)) {
                engine.await(p.send(0, rank, peer, 1, data, null, Mode.STANDARD));
            }
            if (rank == 0) {
                engine.await(p.receiveBlocking(0, peer, 1, data, null, null));
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
