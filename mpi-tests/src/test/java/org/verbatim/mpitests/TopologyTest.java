package org.verbatim.mpitests;

import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link TopologyProgram}: groups, attributes and topologies on 1, 2, 3, 4 and 7 ranks. */
@Timeout(200)
class TopologyTest {
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 7})
    void groupsAttributesAndTopologies(int ranks) throws Exception {
        MpiJob.run(ranks, 150, List.of(), "128m", TopologyProgram.class,
                Integer.toString(ranks)).assertAllPassed(ranks, 80);
    }
}
