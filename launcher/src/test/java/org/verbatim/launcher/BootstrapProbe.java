package org.verbatim.launcher;

import java.util.concurrent.TimeUnit;
import org.verbatim.bootstrap.Bootstrap;
import org.verbatim.bootstrap.Bootstraps;

/**
 * A rank program for the multi-process tests, using the bootstrap directly:
 * {@code kv} exchanges values through put/barrier/get and checks them; {@code exit R C},
 * {@code kill R} and {@code abort R C} make rank R fail after the exchange while the others
 * block in a barrier that can only end if the launcher ends the job; {@code nofinalize} exits
 * without closing the bootstrap. Every mode leaves a file /dev/shm/verbatim-<jobid>-probe<rank>.
 */
public final class BootstrapProbe {
    private BootstrapProbe() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "kv";
        Bootstrap b = Bootstraps.fromEnvironment();
        int rank = b.rank();
        int size = b.size();
        exchange(b, "first");
        exchange(b, "second");
        // A file named like the shm transport's, left behind on purpose: mpirun must remove it.
        java.nio.file.Path shm = java.nio.file.Path.of("/dev/shm", "verbatim-" + b.jobId() + "-probe" + rank);
        java.nio.file.Files.writeString(shm, "probe");
        System.out.println("rank " + rank + " shm file " + shm);
        System.out.flush();
        b.barrier(); // every rank has reported its file before any rank fails on purpose
        switch (mode) {
            case "kv" -> {
                System.out.println("rank " + rank + " of " + size + " ok job=" + b.jobId() + " via "
                        + (System.getenv("PMI_FD") != null ? "PMI_FD" : System.getenv("PMI_PORT") != null ? "PMI_PORT" : "none")
                        + " native-access=" + BootstrapProbe.class.getModule().isNativeAccessEnabled());
                System.err.println("rank " + rank + " stderr line");
                b.close();
            }
            case "exit" -> {
                if (rank == Integer.parseInt(args[1])) {
                    System.out.println("rank " + rank + " exiting with " + args[2]);
                    System.exit(Integer.parseInt(args[2]));
                }
                b.barrier();
                throw new AssertionError("barrier passed although a rank exited");
            }
            case "kill" -> {
                if (rank == Integer.parseInt(args[1])) {
                    System.out.println("rank " + rank + " killing itself");
                    System.out.flush();
                    new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).start().waitFor();
                    TimeUnit.SECONDS.sleep(60);
                }
                b.barrier();
                throw new AssertionError("barrier passed although a rank died");
            }
            case "abort" -> {
                if (rank == Integer.parseInt(args[1])) {
                    b.abort(Integer.parseInt(args[2]), "probe asked for it");
                    TimeUnit.SECONDS.sleep(60);
                }
                b.barrier();
                throw new AssertionError("barrier passed although a rank aborted");
            }
            case "nofinalize" -> System.out.println("rank " + rank + " leaving without finalize");
            case "sleep" -> {
                TimeUnit.SECONDS.sleep(Long.parseLong(args[1]));
                b.close();
            }
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    /** Every rank puts a value with characters PMI forbids, then reads everybody's back. */
    private static void exchange(Bootstrap b, String round) {
        b.put(round + "." + b.rank(), value(round, b.rank()));
        b.barrier();
        for (int r = 0; r < b.size(); r++) {
            String got = b.get(round + "." + r);
            if (!value(round, r).equals(got)) {
                System.err.println("rank " + b.rank() + ": " + round + "." + r + " is '" + got + "'");
                System.exit(3);
            }
        }
        if (b.get("absent." + round) != null) {
            System.err.println("rank " + b.rank() + ": absent key has a value");
            System.exit(3);
        }
    }

    private static String value(String round, int rank) {
        return round + " value of rank=" + rank + " % ü\t" + "x".repeat(rank * 50);
    }
}
