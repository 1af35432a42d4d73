package org.verbatim.benchmarks.spawn;

import java.util.Arrays;
import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Spawn time as a program sees it: one parent spawns {@code children} processes of {@link
 * SpawnLatencyChild} and times from the call until the inter-communicator is usable (a barrier
 * across it has completed), {@code reps} times; then the children disconnect and end. Only the
 * {@code mpi} API, so the same source runs on Open MPI's Java bindings.
 *
 * <p>Usage: {@code SpawnLatency CHILDREN REPS COMMAND [CHILD ARGS...]}: COMMAND and the child
 * arguments are what spawn runs (on Verbatim {@code java SpawnLatencyChild}: mpirun's JDK with the
 * parent's class path; on Open MPI the JDK's full path, {@code -Djava.library.path}, {@code -cp}).
 * Prints one line per spawn and {@code median_ms=...}.
 */
public final class SpawnLatency {
    private SpawnLatency() {
    }

    /** Runs the measurement (see the class comment). */
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int children = Integer.parseInt(args[0]);
        int reps = Integer.parseInt(args[1]);
        String command = args[2];
        String[] childArgs = Arrays.copyOfRange(args, 3, args.length);
        double[] ms = new double[reps];
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            Intercomm kids = MPI.COMM_WORLD.spawn(command, childArgs, children, MPI.INFO_NULL, 0, null);
            kids.barrier();
            ms[r] = (System.nanoTime() - t0) / 1e6;
            System.out.printf("spawn %d: %d children usable after %.1f ms%n", r, kids.getRemoteSize(), ms[r]);
            kids.disconnect();
        }
        double[] sorted = ms.clone();
        Arrays.sort(sorted);
        System.out.printf("median_ms=%.1f min_ms=%.1f max_ms=%.1f%n", sorted[reps / 2], sorted[0],
                sorted[reps - 1]);
        MPI.Finalize();
    }
}
