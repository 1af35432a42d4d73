package org.verbatim.mpitests;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link PointToPointProgram} on 2, 3 and 4 ranks (4 is more ranks than the cores CI gives us),
 * with the default eager limit and with a configured one below the shm transport's cap.
 */
@Timeout(150)
class PointToPointTest {
    @Test
    void twoRanksWithSixtyFourMegabyteMessages() throws Exception {
        MpiJob.run(2, 120, List.of(), "640m", PointToPointProgram.class, "2", "16384", "big")
                .assertAllPassed(2, 300);
    }

    @Test
    void threeRanksWithAConfiguredEagerLimit() throws Exception {
        MpiJob.run(3, 120, List.of("VERBATIM_CORE_EAGER_LIMIT=4096"), "256m",
                PointToPointProgram.class, "3", "4096").assertAllPassed(3, 300);
    }

    @Test
    void fourRanks() throws Exception {
        MpiJob.run(4, 120, List.of(), "256m", PointToPointProgram.class, "4", "16384")
                .assertAllPassed(4, 300);
    }
}
