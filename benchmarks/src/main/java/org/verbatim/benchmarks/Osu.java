package org.verbatim.benchmarks;

import mpi.MPI;
import mpi.MPIException;

/** What the OSU-style programs share: the size sequence, the header and the table rows. */
final class Osu {
    private Osu() {
    }

    /** The message sizes from {@code o.minSize} to {@code o.maxSize}: 0, 1, 2, 4, ... */
    static int[] sizes(OsuOptions o) {
        java.util.List<Integer> list = new java.util.ArrayList<>();
        for (long size = o.minSize; size <= o.maxSize; size = size == 0 ? 1 : size * 2) {
            list.add((int) size);
        }
        return list.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Checks for exactly two ranks; prints why not on rank 0. */
    static boolean twoRanks(String program) throws MPIException {
        int n = MPI.COMM_WORLD.getSize();
        if (n != 2) {
            if (MPI.COMM_WORLD.getRank() == 0) {
                System.err.println(program + ": needs exactly 2 ranks, got " + n);
            }
            return false;
        }
        return true;
    }

    static void header(String title, OsuOptions o, String column) {
        System.out.println("# " + title);
        System.out.println("# bindings: " + bindings() + ", buffers: " + (o.direct ? "direct" : "array")
                + ", java " + System.getProperty("java.version")
                + (o.batches > 1 ? ", best of " + o.batches + " batches" : ""));
        System.out.printf("%-10s%20s%n", "# Size", column);
        System.out.flush();
    }

    static void row(int size, double value) {
        System.out.printf("%-10d%20.2f%n", size, value);
        System.out.flush();
    }

    /**
     * Waits until this JVM's JIT has completed no compilation for three polls of 50 ms in a row
     * (at most 3 s): a rank bound to one core shares it with its compiler threads, so a
     * compilation queued by untimed iterations would otherwise run during the timed ones. The
     * total only grows when a compilation ends, so one quiet poll can be a long compilation
     * still running (a C2 compile of a reduction loop takes longer than 50 ms here). Not a
     * barrier.
     */
    static void settleJit() {
        java.lang.management.CompilationMXBean jit =
                java.lang.management.ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + 3_000_000_000L;
        long before = jit.getTotalCompilationTime();
        int quiet = 0;
        while (quiet < 3 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            long now = jit.getTotalCompilationTime();
            quiet = now == before ? quiet + 1 : 0;
            before = now;
        }
    }

    static String bindings() {
        try {
            return MPI.class.getMethod("getLibVersion").invoke(null).toString().lines().findFirst()
                    .orElse("?").trim();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return MPI.class.getProtectionDomain().getCodeSource() == null ? "?"
                    : MPI.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        }
    }
}
