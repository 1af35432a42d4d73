package org.verbatim.mpitests;

import java.util.Arrays;
import mpi.Info;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The parents of MPI_Comm_spawn: {@code spawn} starts 2 children of {@link SpawnChildProgram}
 * with arguments, {@code multiple} starts 1 + 2 children of two commands with different
 * arguments (spawnMultiple, the last parent as root), {@code crash} starts 2 children of which rank 1 dies after
 * MPI_Init (the job must end naming it), {@code bad} asks for a program that does not exist
 * (ERR_SPAWN on every parent). Parents and children run every inter-communicator collective
 * (parents are group 0) and disconnect.
 */
public final class SpawnProgram {
    /** JVM options for the children: small, like the parents'. */
    static final String[] JVM = {"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx128m",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"};

    private SpawnProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        Checks c = new Checks(w.getRank());
        c.run(args[0], () -> run(c, w, args[0]));
        MPI.Finalize();
        System.exit(c.summary());
    }

    private static String[] childArgs(String... programArgs) {
        String[] a = Arrays.copyOf(JVM, JVM.length + 1 + programArgs.length);
        a[JVM.length] = SpawnChildProgram.class.getName();
        System.arraycopy(programArgs, 0, a, JVM.length + 1, programArgs.length);
        return a;
    }

    private static void run(Checks c, Intracomm w, String mode) throws MPIException {
        c.check("not spawned: getParent is null", Intercomm.getParent().isNull(), "");
        Object universe = w.getAttr(MPI.UNIVERSE_SIZE);
        c.check("universe size at least the world size", universe instanceof Integer u
                && u >= w.getSize(), String.valueOf(universe));
        Intercomm children;
        int expected;
        switch (mode) {
            case "spawn" -> {
                int[] errcodes = new int[2];
                Arrays.fill(errcodes, -1);
                children = w.spawn("java", childArgs("spawn", "alpha", "two words"), 2,
                        MPI.INFO_NULL, 0, errcodes);
                c.check("errcodes all SUCCESS", errcodes[0] == MPI.SUCCESS && errcodes[1] == MPI.SUCCESS,
                        Arrays.toString(errcodes));
                expected = 2;
            }
            case "multiple" -> {
                Info wdir = new Info();
                wdir.set("wdir", System.getProperty("java.io.tmpdir"));
                children = w.spawnMultiple(new String[] {"java", "java"},
                        new String[][] {childArgs("multiple", "first"), childArgs("multiple", "second")},
                        new int[] {1, 2}, new Info[] {wdir, MPI.INFO_NULL}, w.getSize() - 1, null);
                expected = 3;
            }
            case "crash" -> {
                children = w.spawn("java", childArgs("crash"), 2, MPI.INFO_NULL, 0, null);
                children.barrier(); // the job ends here: child 1 is gone
                c.fail("the job should have ended", "it went on");
                return;
            }
            case "bad" -> {
                c.expectError("spawn of a program that does not exist", MPI.ERR_SPAWN, "MPI_Comm_spawn",
                        () -> w.spawn("/nonexistent/verbatim-program", null, 1, MPI.INFO_NULL, 0, null));
                Info elsewhere = new Info();
                elsewhere.set("host", "verbatim-no-such-host.invalid");
                c.expectError("spawn on another host", MPI.ERR_SPAWN, "MPI_Comm_spawn",
                        () -> w.spawn("java", childArgs("spawn"), 1, elsewhere, 0, null));
                c.expectError("spawn of 0 processes", MPI.ERR_SPAWN, "MPI_Comm_spawn",
                        () -> w.spawn("java", childArgs("spawn"), 0, MPI.INFO_NULL, 0, null));
                return;
            }
            default -> throw new IllegalArgumentException(mode);
        }
        children.setErrhandler(MPI.ERRORS_RETURN);
        c.equal("remote size is the number of children", expected, children.getRemoteSize());
        c.equal("local size is the parents' world", w.getSize(), children.getSize());
        new InterCollectiveChecks(c, children, 0).runAll(mode);
        children.disconnect();
        c.check("isNull after disconnect", children.isNull(), "");
    }
}
