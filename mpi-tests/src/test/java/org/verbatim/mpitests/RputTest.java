package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The RPUT rendezvous forced ({@code verbatim.core.rendezvous=rput}) over shm: every message above
 * the eager limit travels as RTS, CTS with the receiver's buffer, RDMA writes closed by
 * write-with-immediate. {@link PointToPointProgram} sends arrays, heap and direct buffers, slices
 * and segments both ways (64 MiB included), cancels and probes; {@link BadInputProgram} checks
 * that truncation writes nothing past any kind of receive buffer. The proto-info line proves the
 * protocol in force.
 */
@Timeout(150)
class RputTest {
    private static final String RPUT = "VERBATIM_CORE_RENDEZVOUS=rput";
    private static final String PROTO_INFO = "VERBATIM_CORE_PROTO_INFO=true";

    @Test
    void pointToPointOverCrossMemoryAttachWrites() throws Exception {
        MpiJob job = MpiJob.run(2, 120, List.of(RPUT, PROTO_INFO), "640m",
                PointToPointProgram.class, "2", "16384", "big").assertAllPassed(2, 300);
        assertTrue(job.err().contains("rank 0 -> rank 1: transport shm, eager <= 16352 B, "),
                job::report);
        assertTrue(job.err().contains("16353.. B: RPUT zero-copy closed by write-with-immediate"),
                job::report);
    }

    @Test
    void pointToPointOverEmulatedWrites() throws Exception {
        MpiJob job = MpiJob.run(2, 120, List.of(RPUT, PROTO_INFO, "VERBATIM_SHM_CMA=false"),
                "256m", PointToPointProgram.class, "2", "16384").assertAllPassed(2, 300);
        assertTrue(job.err().contains("RPUT zero-copy (emulated write) closed by "
                + "write-with-immediate"), job::report);
    }

    @Test
    void truncationAndBadInput() throws Exception {
        MpiJob job = MpiJob.run(3, 60, List.of(RPUT, PROTO_INFO), "128m", BadInputProgram.class)
                .assertAllPassed(3, 200);
        assertTrue(job.err().contains(": RPUT zero-copy"), job::report);
    }
}
