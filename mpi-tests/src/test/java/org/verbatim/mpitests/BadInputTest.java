package org.verbatim.mpitests;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link BadInputProgram}: bad input under ERRORS_RETURN, use before Init and after Finalize. */
@Timeout(90)
class BadInputTest {
    @Test
    void everyBadInputGetsItsErrorClass() throws Exception {
        MpiJob.run(3, 60, List.of(), "128m", BadInputProgram.class).assertAllPassed(3, 200);
    }
}
