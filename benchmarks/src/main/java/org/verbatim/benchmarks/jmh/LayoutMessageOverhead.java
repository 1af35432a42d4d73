package org.verbatim.benchmarks.jmh;

import java.nio.IntBuffer;
import java.util.concurrent.TimeUnit;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The software cost of a derived-datatype message, as {@link PerMessageOverhead} measures a
 * contiguous one: a singleton rank sends x columns of a 128 x 4096 int matrix to itself
 * ({@code createVector(128, columns, 4096, MPI.INT)}) through the public API, the runtime's
 * layout path (packed into the eager slot, or packed for the rendezvous) and the loopback
 * transport, into a receive posted first (a message past the eager limit to oneself needs it);
 * {@code contiguous} sends the same bytes contiguous.
 * Run with {@code -prof gc} for the bytes allocated per message.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class LayoutMessageOverhead {
    @Param({"1", "64"})
    public int columns;

    private Comm comm;
    private int self;
    private Datatype block;
    private IntBuffer matrix;
    private IntBuffer received;

    @Setup(Level.Trial)
    public void init() throws MPIException {
        MPI.Init(new String[0]);
        comm = MPI.COMM_WORLD;
        self = comm.getRank();
        block = Datatype.createVector(128, columns, 4096, MPI.INT);
        block.commit();
        matrix = MPI.newIntBuffer(128 * 4096);
        received = MPI.newIntBuffer(128 * 4096);
    }

    @TearDown(Level.Trial)
    public void finish() throws MPIException {
        MPI.Finalize();
    }

    @Benchmark
    public void vector() throws MPIException {
        Request r = comm.iRecv(received, 1, block, self, 1);
        comm.send(matrix, 1, block, self, 1);
        r.waitFor();
    }

    @Benchmark
    public void contiguous() throws MPIException {
        Request r = comm.iRecv(received, 128 * columns, MPI.INT, self, 1);
        comm.send(matrix, 128 * columns, MPI.INT, self, 1);
        r.waitFor();
    }
}
