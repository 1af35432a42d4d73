package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code verbatim.core.profile}: rank 0 alone prints the counters of every rank combined (message
 * totals, unexpected share, size histogram); {@code verbatim.core.profile-ranks} adds each rank's.
 */
@Timeout(120)
class ProfileTest {
    private static int count(String text, String what) {
        return text.split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }

    @Test
    void rankZeroPrintsTheJobsTotals() throws Exception {
        MpiJob job = MpiJob.run(4, 90, List.of("VERBATIM_CORE_PROFILE=true"), "128m",
                ProfileProgram.class, "10").assertAllPassed(4, 10);
        String err = job.err();
        assertEquals(1, count(err, "verbatim profile, "), job::report);
        assertTrue(err.contains("verbatim profile, 4 ranks (totals over the ranks):"), job::report);
        // 4 x (10 x 100 B + one 100 KiB) from the program, the rest from the finalize barrier
        assertTrue(err.matches("(?s).*<= 128 B +40 msgs +4000 bytes.*"), job::report);
        assertTrue(err.matches("(?s).*<= 131072 B +4 msgs +409600 bytes.*"), job::report);
        assertTrue(err.matches("(?s).*unexpected received +\\d+ \\(\\d+\\.\\d% of the messages\\).*"),
                job::report);
        assertFalse(err.contains("verbatim profile, rank"), job::report);
        // communication memory counts what the transports hold: at least each rank's 512 KiB
        // shm inbox ring besides the runtime's staging
        var memory = java.util.regex.Pattern.compile("communication memory +\\d+ bytes \\(avg (\\d+),")
                .matcher(err);
        assertTrue(memory.find(), job::report);
        assertTrue(Long.parseLong(memory.group(1)) >= 512 * 1024, job::report);
    }

    @Test
    void perRankLinesOnRequest() throws Exception {
        MpiJob job = MpiJob.run(2, 90, List.of("VERBATIM_CORE_PROFILE=true",
                "VERBATIM_CORE_PROFILE_RANKS=true"), "128m", ProfileProgram.class, "3")
                .assertAllPassed(2, 3);
        String err = job.err();
        assertTrue(err.contains("verbatim profile, rank 0:") && err.contains("verbatim profile, rank 1:"),
                job::report);
        assertEquals(1, count(err, "verbatim profile, 2 ranks"), job::report);
    }
}
