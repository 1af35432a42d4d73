package org.verbatim.benchmarks.spawn;

import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;

/** The child of {@link SpawnLatency}: a barrier with its parent, disconnect, end. */
public final class SpawnLatencyChild {
    private SpawnLatencyChild() {
    }

    /** Joins the parent's barrier and leaves. */
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intercomm parent = Intercomm.getParent();
        parent.barrier();
        parent.disconnect();
        MPI.Finalize();
    }
}
