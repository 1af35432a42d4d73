package org.verbatim.mpitests;

import java.nio.file.Path;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * A child of {@link SpawnProgram}: checks its own world, its arguments and the
 * inter-communicator to its parents (group 0), runs every inter-communicator collective as group
 * 1 and disconnects; in mode {@code crash} rank 1 exits with status 3 right after MPI_Init.
 */
public final class SpawnChildProgram {
    private SpawnChildProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int me = w.getRank();
        if (args[0].equals("crash") && me == 1) {
            System.exit(3);
        }
        Checks c = new Checks(me);
        c.run("child", () -> {
            Intercomm parent = Intercomm.getParent();
            c.check("child: getParent is not null", !parent.isNull(), "");
            parent.setErrhandler(MPI.ERRORS_RETURN);
            c.equal("child: its world is the children", parent.getSize(), w.getSize());
            switch (args[0]) {
                case "spawn" -> {
                    c.equal("child: world size", 2, w.getSize());
                    c.equal("child: APPNUM", 0, w.getAttr(MPI.APPNUM));
                    c.check("child: arguments", args.length == 3 && args[1].equals("alpha")
                            && args[2].equals("two words"), String.join("|", args));
                }
                case "multiple" -> {
                    c.equal("child: world size", 3, w.getSize());
                    c.equal("child: argument of its command", me == 0 ? "first" : "second", args[1]);
                    c.equal("child: APPNUM is its command's index", me == 0 ? 0 : 1,
                            w.getAttr(MPI.APPNUM));
                    if (me == 0) {
                        c.equal("child: wdir", Path.of(System.getProperty("java.io.tmpdir")).toRealPath(),
                                Path.of("").toAbsolutePath().toRealPath());
                    }
                }
                default -> {
                }
            }
            if (args[0].equals("crash")) {
                parent.barrier();
                return;
            }
            new InterCollectiveChecks(c, parent, 1).runAll("child " + args[0]);
            parent.disconnect();
            c.check("child: getParent isNull after disconnect", Intercomm.getParent().isNull(), "");
        });
        MPI.Finalize();
        System.out.println("CHILD DONE rank " + me + " failed=" + c.failed());
        System.exit(c.failed() == 0 ? 0 : 1);
    }
}
