package org.verbatim.benchmarks.jmh;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The software cost of one small message, with no peer and no wire: a singleton rank sends to
 * itself, so every message is posted through the public API, the point-to-point protocol and
 * the runtime, carried by the loopback ("self") transport, delivered, matched and completed, all
 * on one thread. This is the overhead that decides a ping-pong's latency floor and the message
 * rate, kept here so it cannot grow unnoticed. Run {@code benchmarks/per-message} (which adds
 * {@code -prof gc}: bytes allocated per message).
 *
 * <p>{@code blocking*}: one {@code send} and one {@code recv} of 8 bytes. {@code window}: 64
 * {@code iRecv}, 64 {@code iSend}, one {@code Request.waitAll}, reported per message.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PerMessageOverhead {
    private static final int WINDOW = 64;
    private Comm comm;
    private int self;
    private ByteBuffer direct;
    private byte[] array;
    private ByteBuffer[] windowBuffers;
    private Request[] requests;

    @Setup(Level.Trial)
    public void init() throws MPIException {
        MPI.Init(new String[0]);
        comm = MPI.COMM_WORLD;
        self = comm.getRank();
        direct = MPI.newByteBuffer(8);
        array = new byte[8];
        windowBuffers = new ByteBuffer[2 * WINDOW];
        for (int i = 0; i < windowBuffers.length; i++) {
            windowBuffers[i] = MPI.newByteBuffer(8);
        }
        requests = new Request[2 * WINDOW];
    }

    @TearDown(Level.Trial)
    public void finish() throws MPIException {
        MPI.Finalize();
    }

    @Benchmark
    public void blockingDirect() throws MPIException {
        comm.send(direct, 8, MPI.BYTE, self, 1);
        comm.recv(direct, 8, MPI.BYTE, self, 1);
    }

    @Benchmark
    public void blockingArray() throws MPIException {
        comm.send(array, 8, MPI.BYTE, self, 1);
        comm.recv(array, 8, MPI.BYTE, self, 1);
    }

    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public void window() throws MPIException {
        for (int i = 0; i < WINDOW; i++) {
            requests[i] = comm.iRecv(windowBuffers[i], 8, MPI.BYTE, self, 2);
        }
        for (int i = 0; i < WINDOW; i++) {
            requests[WINDOW + i] = comm.iSend(windowBuffers[WINDOW + i], 8, MPI.BYTE, self, 2);
        }
        Request.waitAll(requests);
    }
}
