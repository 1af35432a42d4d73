package org.verbatim.mpitests;

import java.io.File;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link RmaProgram}: every window call, each fence design and scheduler setting, at 2..7 ranks. */
@Timeout(300)
class RmaTest {
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 7})
    void everyCallAgainstTheReference(int ranks) throws Exception {
        MpiJob.run(ranks, 240, List.of(), "192m", RmaProgram.class).assertAllPassed(ranks, 500);
    }

    /**
     * Locks by atomics forced on one host: created and dynamic windows take their members' host
     * lock words (in shared segments) by CPU atomics, and every put and get of their lock epochs
     * goes by cross-memory attach (the passive checks: exclusive counter, contention, fairness).
     */
    @Test
    void everyCallWithAtomicLocksOnOneHost() throws Exception {
        MpiJob.run(3, 240, List.of("VERBATIM_RMA_LOCK=atomic"), "192m", RmaProgram.class)
                .assertAllPassed(3, 500);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void derivedTargetAndOriginTypesAgainstTheReference(int ranks) throws Exception {
        MpiJob.run(ranks, 240, List.of(), "192m", RmaDerivedProgram.class)
                .assertAllPassed(ranks, 590);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void allocatedWindowsNowPathAllocatesNothing(int ranks) throws Exception {
        MpiJob.run(ranks, 180, List.of(), "128m", RmaAllocationProgram.class)
                .assertAllPassed(ranks, 9);
    }

    /**
     * A put or get by RDMA (CMA on shm) allocates nothing in {@code DirectOps} (its posts and
     * completions are pooled) nor in the scheduler's hand-over at the flush (kept lists). The
     * bound is what the rest of the general path still allocates per call (the API's RmaTarget,
     * the HeldOp, a get's request: 138-170 B per put + flush, 190-255 B per get + flush with
     * JDK 25), below main's 320 and 408 B with the scheduler off and 528 and 617 B with it on.
     */
    @ParameterizedTest
    @ValueSource(strings = {"true", "false"})
    void rdmaPutsAndGetsAllocateNothingInDirectOps(String schedule) throws Exception {
        MpiJob.run(2, 180, List.of("VERBATIM_RMA_SCHEDULE=" + schedule), "128m",
                RmaDirectAllocationProgram.class, "240", "330").assertAllPassed(2, 3);
    }

    @Test
    void withoutTheModuleEveryWindowIsUnsupported() throws Exception {
        String cp = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !isOnesided(e)).collect(Collectors.joining(File.pathSeparator));
        MpiJob.run(2, 60, List.of(), "128m", cp, WinWithoutModuleProgram.class)
                .assertAllPassed(2, 5);
    }

    @Test
    void profilerCountsOperationsBytesPathsAndEpochs() throws Exception {
        MpiJob job = MpiJob.run(2, 60, List.of("VERBATIM_CORE_PROFILE=true"), "128m",
                RmaProfileProgram.class);
        org.junit.jupiter.api.Assertions.assertEquals(0, job.status(), job::report);
        String all = job.out() + job.err();
        for (String expected : new String[] {"RMA operations 6,", "RMA bytes 64 B",
                "RMA operations direct (load/store) 2,", "RMA epochs 6,"}) {
            org.junit.jupiter.api.Assertions.assertTrue(all.contains(expected),
                    () -> "missing '" + expected + "'\n" + job.report());
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "RMA operations as messages (\\d+), .*RMA operations as RDMA (\\d+),").matcher(all);
        org.junit.jupiter.api.Assertions.assertTrue(m.find(), job::report);
        org.junit.jupiter.api.Assertions.assertEquals(4, Integer.parseInt(m.group(1))
                + Integer.parseInt(m.group(2)), job::report);
    }

    /** The onesided module's jar or classes directory. */
    private static boolean isOnesided(String entry) {
        return new File(entry).getName().startsWith("verbatim-onesided")
                || entry.replace(File.separatorChar, '/').endsWith("/onesided/target/classes");
    }
}
