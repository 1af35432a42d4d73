package org.verbatim.mpitests;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link LoadProgram}: outstanding requests, ANY_SOURCE under load, THREAD_MULTIPLE. */
@Timeout(150)
class LoadTest {
    @Test
    void fourRanksFourThreads() throws Exception {
        MpiJob.run(4, 120, List.of(), "256m", LoadProgram.class, "2000", "4", "1000")
                .assertAllPassed(4, 6);
    }

    /** Three times as many ranks as the two cores CI gives: the idle strategy must back off. */
    @Test
    void sixRanksOversubscribed() throws Exception {
        MpiJob.run(6, 120, List.of(), "128m", LoadProgram.class, "300", "3", "200")
                .assertAllPassed(6, 6);
    }
}
