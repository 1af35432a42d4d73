package org.verbatim.mpitests;

import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link CollectiveAllocationProgram}: the blocking small collectives do not allocate. */
@Timeout(200)
class CollectiveAllocationTest {
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void blockingBarrierAndSmallAllreduceDoNotAllocate(int ranks) throws Exception {
        MpiJob.run(ranks, 180, List.of(), "128m", CollectiveAllocationProgram.class)
                .assertAllPassed(ranks, 5);
    }
}
