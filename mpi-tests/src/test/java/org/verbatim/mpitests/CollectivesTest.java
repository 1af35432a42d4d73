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
}
