package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An RDMA CM failure during MPI_Init over iwarp (a listener address that is on no interface of
 * the host, all-at-once connections) ends the job with an error naming the device, the address
 * and the port, instead of a hang or a bare errno.
 */
@Tag("rdma")
@Timeout(600)
class IwarpSetupFailureTest {
    @Test
    void unusableAddressEndsTheJobNamingDeviceAddressAndPort() throws Exception {
        List<String> env = new ArrayList<>(IwarpJobs.env("all"));
        env.add("VERBATIM_IWARP_ADDRESS=192.0.2.1");
        env.add("VERBATIM_IWARP_PORT=4791");
        MpiJob job = MpiJob.run(2, 500, env, "256m", PointToPointProgram.class, "2", IwarpJobs.EAGER_LIMIT);
        assertNotEquals(0, job.status(), job::report);
        assertTrue(job.err().contains("siw0") && job.err().contains("192.0.2.1:4791"), job::report);
    }
}
