package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The one-sided suite ({@link RmaProgram}: every window call, each fence design and scheduler
 * setting, passive target with its fairness check, bad input and epoch misuse;
 * {@link RmaDerivedProgram}) with the ib transport forced on rxe0 in the RDMA guest: puts and gets
 * of windows created on native memory are verbs RDMA writes and reads, and allocated windows are
 * private memory (no shared-memory transport between the ranks, so an allocate-shared window is
 * MPI_ERR_RMA_SHARED, which the programs check instead). Passive-target locks are remote atomics
 * (auto picks them over ib; the 3-rank job forces {@code verbatim.rma.lock=atomic});
 * {@link RmaPassiveProgressProgram} shows that they need nothing from the target, and that lock
 * records do. Guest time (TCG, one guest): about 70 s for the 2-rank suite, 130 s for 3 ranks,
 * 65 s for the derived types, 60-90 s for passive progress (four windows, each with a 3 s sleep).
 */
@Tag("rdma")
@Timeout(900)
class IbRmaTest {
    @ParameterizedTest
    @CsvSource({"2, auto", "3, atomic"})
    void everyCallOverIb(int ranks, String lock) throws Exception {
        MpiJob job = MpiJob.run(ranks, 600, env("VERBATIM_RMA_LOCK=" + lock), "192m",
                RmaProgram.class, "no-shm").assertAllPassed(ranks, 400);
        assertTrue(job.err().contains("rank 0 -> rank 1: transport ib"), job::report);
    }

    @Test
    void derivedTypesOverIb() throws Exception {
        MpiJob job = MpiJob.run(2, 600, env(), "192m", RmaDerivedProgram.class, "no-shm")
                .assertAllPassed(2, 450);
        assertTrue(job.err().contains("rank 0 -> rank 1: transport ib"), job::report);
    }

    /**
     * Locks by remote atomics (what auto picks over ib): the origin's epochs end while the target
     * sleeps outside MPI, with puts and gets of 128 B and of 8 B (below the RDMA threshold: every
     * put and get of such a lock epoch goes by RDMA), and a get after a put to the same place
     * reads the put; a last window with lock records waits for the target.
     */
    @Test
    void passiveTargetProgressesWithoutTheTarget() throws Exception {
        MpiJob job = MpiJob.run(2, 300, env(), "128m", RmaPassiveProgressProgram.class,
                "progress").assertAllPassed(2, 4);
        System.out.println(job.out().lines().filter(l -> l.startsWith("TIMES"))
                .reduce("", (a, b) -> a + b + "\n"));
    }

    private static List<String> env(String... more) {
        List<String> env = new ArrayList<>(IbJobs.env("srq"));
        env.addAll(List.of(more));
        return env;
    }
}
