package org.verbatim.launcher;

import java.util.ArrayList;
import java.util.List;

/**
 * One world started by MPI_Comm_spawn: its PMI server (its own key-value space and barrier),
 * its processes in rank order and the command each runs, for messages.
 */
final class ChildWorld {
    final String kvsName;
    final PmiServer pmi;
    final List<Process> processes = new ArrayList<>();
    final List<String> commands = new ArrayList<>();
    /** The index of each rank's command in its spawn request (its MPI_APPNUM). */
    final List<Integer> appNums = new ArrayList<>();

    /** Ranks started on another host (over ssh), which joined, and which have ended. */
    final boolean[] remote;
    final boolean[] joined;
    final boolean[] remoteEnded;

    ChildWorld(String kvsName, PmiServer pmi, int size) {
        this.kvsName = kvsName;
        this.pmi = pmi;
        this.remote = new boolean[size];
        this.joined = new boolean[size];
        this.remoteEnded = new boolean[size];
    }

    /** "spawned rank 1 of world K (pid 4711, java Child)". */
    String describe(int rank) {
        Process p = rank < processes.size() ? processes.get(rank) : null;
        return "spawned rank " + rank + " of world " + kvsName + " (" + (p == null ? "" : "pid " + p.pid() + ", ")
                + commands.get(rank) + ")";
    }
}
