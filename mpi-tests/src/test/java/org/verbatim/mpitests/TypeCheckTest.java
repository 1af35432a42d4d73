package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link TypeCheckProgram}: verbatim.core.check-types on (mismatches get MPI_ERR_TYPE) and off. */
@Timeout(120)
class TypeCheckTest {
    @Test
    void mismatchedTypesGetErrTypeAndMatchingOnesPassWhenTheCheckIsOn() throws Exception {
        MpiJob job = MpiJob.run(2, 90, List.of("VERBATIM_CORE_CHECK_TYPES=true"), "128m",
                TypeCheckProgram.class, "on");
        job.assertAllPassed(2, 0);
        assertTrue(job.out().contains("SUMMARY rank 1 passed=28 failed=0"), job::report); // the receiving rank
    }

    @Test
    void withTheCheckOffMismatchesAreDeliveredAsMpiLeavesThem() throws Exception {
        MpiJob job = MpiJob.run(2, 90, List.of(), "128m", TypeCheckProgram.class, "off");
        job.assertAllPassed(2, 0);
        assertTrue(job.out().contains("SUMMARY rank 1 passed=28 failed=0"), job::report);
    }
}
