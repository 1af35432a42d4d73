package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One job started by two mpiruns, as on two hosts (here both on loopback): the first serves PMI
 * with {@code --listen} and starts ranks 0-1, the second starts 2-3 with {@code --join}. A
 * failure on either side ends both with the failure's status.
 */
@Timeout(120)
class JoinedJobTest {
    private static int port() throws Exception {
        try (var s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String[] args(String where, String ranks, String... probeArgs) {
        List<String> a = new ArrayList<>(List.of("-np", "4", "--timeout", "60", "--ranks", ranks));
        a.addAll(List.of(where.split(" ")));
        List<String> cmd = new ArrayList<>(JobRun.probeCommand(probeArgs));
        cmd.set(cmd.indexOf(BootstrapProbe.class.getName()), MpiProbe.class.getName());
        a.addAll(cmd);
        return a.toArray(String[]::new);
    }

    /**
     * Runs {@code job} on a thread of its own: not in the common pool, which also completes
     * Process.onExit (a pool of one thread on two cores would then never see a rank end).
     */
    private static CompletableFuture<JobRun> inBackground(java.util.concurrent.Callable<JobRun> job) {
        CompletableFuture<JobRun> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(job.call());
            } catch (Exception e) {
                f.completeExceptionally(e);
            }
        }, "serving-mpirun");
        t.setDaemon(true);
        t.start();
        return f;
    }

    private static JobRun[] both(String... probeArgs) throws Exception {
        String address = "127.0.0.1:" + port();
        CompletableFuture<JobRun> serving = inBackground(() -> JobRun.mpirun(args("--listen " + address, "0-1",
                probeArgs)));
        JobRun joined = JobRun.mpirun(args("--join " + address, "2-3", probeArgs));
        return new JobRun[] {serving.get(90, TimeUnit.SECONDS), joined};
    }

    @Test
    void ranksOfBothMpirunsFormOneJob() throws Exception {
        JobRun[] runs = both("ring");
        String report = runs[0].report() + "\n=== joined ===\n" + runs[1].report();
        assertEquals(0, runs[0].status(), report);
        assertEquals(0, runs[1].status(), report);
        assertTrue(runs[0].err().contains("serving PMI for 4 ranks on 127.0.0.1:"), report);
        for (int r = 0; r < 4; r++) {
            assertTrue(runs[r < 2 ? 0 : 1].out().contains("mpi rank " + r + " of 4 ring ok"), report);
        }
    }

    /**
     * Rank 3 kills itself: its mpirun reports the death to the serving one, and the ranks waiting
     * for rank 3 see it gone; whichever the serving mpirun hears first ends the job, both mpiruns
     * end with that status, and rank 3 is named.
     */
    @Test
    void aRankKilledOnTheJoinedSideEndsBoth() throws Exception {
        JobRun[] runs = both("kill", "3");
        String report = runs[0].report() + "\n=== joined ===\n" + runs[1].report();
        assertTrue(runs[0].status() == 137 || runs[0].status() == 74, report);
        assertEquals(runs[0].status(), runs[1].status(), report);
        assertTrue(Pattern.compile("rank 3 \\(pid \\d+\\) (on \\S+ )?was killed by signal 9|rank 3 failed")
                .matcher(runs[0].err()).find(), report);
    }

    @Test
    void aRankAbortingOnTheServingSideEndsBoth() throws Exception {
        JobRun[] runs = both("abort", "0", "6");
        String report = runs[0].report() + "\n=== joined ===\n" + runs[1].report();
        assertEquals(6, runs[0].status(), report);
        assertEquals(6, runs[1].status(), report);
        assertTrue(runs[1].err().contains("the job ended with status 6 at the serving mpirun"), report);
    }

    @Test
    void joiningRanksThatTheServerStartsItselfIsRefused() throws Exception {
        String address = "127.0.0.1:" + port();
        CompletableFuture<JobRun> serving = inBackground(() -> JobRun.mpirun("-np", "2", "--timeout", "20",
                "--ranks", "0-0", "--listen", address, "sleep", "30"));
        JobRun joined = JobRun.mpirun("-np", "2", "--ranks", "0-1", "--join", address, "true");
        assertEquals(1, joined.status(), joined::report);
        assertTrue(joined.err().contains("refused ranks 0-1: rank 0 runs on the serving host"), joined::report);
        JobRun s = serving.get(60, TimeUnit.SECONDS);
        assertEquals(124, s.status(), s::report);
    }

    /**
     * A serving mpirun without a secret in its environment makes one and prints it; a joining
     * mpirun without it is refused before it starts anything, one with another secret is refused by
     * the server, and the job goes on to its end unharmed.
     */
    @Test
    void joiningNeedsTheServingMpirunsSecret() throws Exception {
        String address = "127.0.0.1:" + port();
        java.util.Map<String, String> noSecret = new java.util.HashMap<>(System.getenv());
        noSecret.remove(org.verbatim.bootstrap.JobSecret.VARIABLE);
        CompletableFuture<JobRun> serving = inBackground(() -> JobRun.mpirunWith(noSecret, "-np", "2", "--timeout",
                "4", "--ranks", "0-0", "--listen", address, "sleep", "30"));
        JobRun without = JobRun.mpirunWith(noSecret, "-np", "2", "--ranks", "1-1", "--join", address, "true");
        assertEquals(2, without.status(), without::report);
        assertTrue(without.err().contains("--join needs the job's secret: set VERBATIM_JOB_SECRET"), without::report);
        java.util.Map<String, String> wrong = new java.util.HashMap<>(noSecret);
        wrong.put(org.verbatim.bootstrap.JobSecret.VARIABLE, "not-the-secret");
        JobRun refused = JobRun.mpirunWith(wrong, "-np", "2", "--ranks", "1-1", "--join", address, "true");
        assertEquals(1, refused.status(), refused::report);
        assertTrue(refused.err().contains("refused this one: not the job's secret"), refused::report);
        JobRun s = serving.get(60, TimeUnit.SECONDS);
        assertEquals(124, s.status(), s::report); // the server waited for rank 1 until --timeout: nothing changed
        assertTrue(Pattern.compile("join with VERBATIM_JOB_SECRET=[0-9a-f]{32} mpirun --join").matcher(s.err()).find(),
                s::report);
        assertTrue(s.err().contains("refused a PMI connection from 127.0.0.1 (wrong secret)"), s::report);
    }
}
