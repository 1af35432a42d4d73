package org.verbatim.mpitests;

import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BufferRulesProgram}: Open MPI's buffer rules at 2 and 4 ranks. */
@Timeout(200)
class BufferRulesTest {
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void openMpiBufferRules(int ranks) throws Exception {
        MpiJob.run(ranks, 120, List.of(), "128m", BufferRulesProgram.class, "alpha", "beta")
                .assertAllPassed(ranks, 30);
    }
}
