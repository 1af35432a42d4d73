package org.verbatim.mpitests;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/** {@link CollectivesProgram} at 1, 2, 3, 4 and 7 ranks (odd and non-power-of-two counts). */
@Timeout(300)
class CollectivesTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 7})
    void everyCollectiveAgainstTheSequentialReference(int ranks) throws Exception {
        MpiJob.run(ranks, 240, List.of(), "256m", CollectivesProgram.class)
                .assertAllPassed(ranks, 60);
    }

    /** Bruck's alltoall normally needs 8 ranks; lowering the threshold exercises it on 3 and 5. */
    @ParameterizedTest
    @ValueSource(ints = {3, 5})
    void bruckAlltoallAndOtherThresholdsMoved(int ranks) throws Exception {
        MpiJob.run(ranks, 240, List.of("VERBATIM_COLL_BRUCK_MIN_RANKS=2",
                        "VERBATIM_COLL_BCAST_LARGE=64", "VERBATIM_COLL_GATHER_LARGE=1m",
                        "VERBATIM_COLL_ALLGATHER_LARGE=1m"), "256m", CollectivesProgram.class)
                .assertAllPassed(ranks, 60);
    }
}
