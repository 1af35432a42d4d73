package org.verbatim.mpitests;

import java.util.List;
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
}
