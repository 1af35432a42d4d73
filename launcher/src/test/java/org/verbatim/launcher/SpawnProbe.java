package org.verbatim.launcher;

import mpi.Info;
import mpi.Intercomm;
import mpi.MPI;

/**
 * Spawn across hosts, for {@link SshLaunchIT}: {@code parent HOST N} spawns N children of this
 * class with info {@code host=HOST} (and {@code wdir} = /tmp), then sums the children's ranks
 * over the inter-communicator; {@code child} (started by the spawn) says where it runs and
 * answers. {@code crash} as the last word makes child 1 exit with status 5 after MPI_Init.
 * {@code names}: rank 0 publishes, looks up and withdraws a name, and says whether that worked.
 */
public final class SpawnProbe {
    private SpawnProbe() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        if (args[0].equals("names")) {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            try {
                if (rank == 0) {
                    String port = mpi.Intracomm.openPort();
                    mpi.Intracomm.publishName("verbatim-probe", port);
                    String found = mpi.Intracomm.lookupName("verbatim-probe");
                    mpi.Intracomm.unpublishName("verbatim-probe", port);
                    System.out.println("names " + (port.equals(found) ? "ok" : "wrong port " + found));
                    mpi.Intracomm.closePort(port);
                }
            } catch (mpi.MPIException e) {
                System.out.println("names refused: class " + e.getErrorClass() + ": " + e.getMessage());
            }
            MPI.Finalize();
            return;
        }
        if (args[0].equals("parent")) {
            Info info = new Info();
            info.set("host", args[1]);
            info.set("wdir", "/tmp");
            int n = Integer.parseInt(args[2]);
            String[] childArgs = args.length > 3 ? new String[] {SpawnProbe.class.getName(), "child", args[3]}
                    : new String[] {SpawnProbe.class.getName(), "child"};
            Intercomm children = MPI.COMM_WORLD.spawn("java", childArgs, n, info, 0, null);
            int[] sum = new int[1];
            children.allReduce(new int[] {100 + rank}, sum, 1, MPI.INT, MPI.SUM);
            System.out.println("parent rank " + rank + " children=" + children.getRemoteSize() + " sum of children="
                    + sum[0]);
            children.disconnect();
        } else {
            Intercomm parent = Intercomm.getParent();
            if (args.length > 1 && args[1].equals("crash") && rank == 1) {
                System.exit(5);
            }
            System.out.println("child rank " + rank + " of " + MPI.COMM_WORLD.getSize() + " ssh="
                    + (System.getenv("SSH_CONNECTION") != null) + " cwd=" + System.getProperty("user.dir")
                    + " parents=" + parent.getRemoteSize());
            int[] sum = new int[1];
            parent.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            System.out.println("child rank " + rank + " sum of parents=" + sum[0]);
            parent.disconnect();
        }
        MPI.Finalize();
    }
}
