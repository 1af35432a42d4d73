package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DatatypeProgram} (every derived-type constructor through every point-to-point mode,
 * partial receives, pack/unpack, gaps checked untouched) on 2 ranks with the ib transport forced
 * on rxe0 in the RDMA guest, once per layout scheme of the datatype paper, forced: the schemes'
 * real adapter paths (registered pack and unpack pools written with immediate data for bc-spup,
 * gather writes for rwg-up, chained list posts of one write per block for multi-w, scatter reads
 * for p-rrs), which shm's cross-memory attach only stands in for. A 64 B eager limit and
 * 1,000-byte segments in pools of 16 make nearly every message a rendezvous that is cut inside
 * blocks and runs the pools dry.
 */
@Tag("rdma")
@Timeout(900)
class IbDatatypeTest {
    @ParameterizedTest
    @ValueSource(strings = {"generic", "bc-spup", "rwg-up", "multi-w", "p-rrs"})
    void eachSchemeOverIb(String scheme) throws Exception {
        List<String> env = new ArrayList<>(IbJobs.env("srq"));
        env.addAll(List.of("VERBATIM_CORE_DATATYPE_SCHEME=" + scheme, "VERBATIM_CORE_EAGER_LIMIT=64",
                "VERBATIM_CORE_DATATYPE_SEGMENT=1000", "VERBATIM_CORE_DATATYPE_POOL=16000"));
        MpiJob job = MpiJob.run(2, 800, env, "256m", DatatypeProgram.class).assertAllPassed(2, 500);
        assertTrue(job.err().contains("rank 0 -> rank 1: transport ib"), job::report);
        assertTrue(job.err().contains(scheme + " (forced"), job::report);
    }
}
