package org.verbatim.mpitests;

import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link PortProgram}: connect/accept between the halves of one job, at 2 and 4 ranks. */
@Timeout(300)
class PortTest {
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void halvesConnectThroughAPortAndRunEveryInterCollective(int ranks) throws Exception {
        MpiJob.run(ranks, 180, List.of(), "256m", PortProgram.class).assertAllPassed(ranks, 40);
    }
}
