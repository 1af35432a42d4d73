package org.verbatim.mpitests;

import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Derived datatypes at 2, 3 and 4 ranks: {@link DatatypeProgram} (every constructor through
 * every point-to-point mode, pack/unpack, partial receives, Struct, bad input) and
 * {@link DatatypeCollectivesProgram} (every collective, v/w variants, in place, reductions),
 * each checking the gaps of receive buffers untouched.
 */
@Timeout(200)
class DatatypeTest {
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void pointToPoint(int ranks) throws Exception {
        MpiJob.run(ranks, 150, List.of(), "256m", DatatypeProgram.class)
                .assertAllPassed(ranks, 500);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void collectives(int ranks) throws Exception {
        MpiJob.run(ranks, 150, List.of(), "256m", DatatypeCollectivesProgram.class)
                .assertAllPassed(ranks, 100);
    }
}
