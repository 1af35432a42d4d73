package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fragmented eager protocol for layouts (verbatim.core.datatype-scheme=fragments) over shm
 * with small eager records, so that messages are many fragments: {@link FragmentProgram}'s cases
 * (a 1 KiB eager size: fragments of 896 bytes; a 16 KiB inbox, so large messages arrive while
 * the receiver already works on them), and {@link DatatypeProgram} (every constructor through
 * every point-to-point mode) with fragments of 128 bytes.
 */
@Timeout(200)
class FragmentTest {
    private static final List<String> SMALL_RECORDS = List.of(
            "VERBATIM_CORE_DATATYPE_SCHEME=fragments", "VERBATIM_CORE_EAGER_LIMIT=64",
            "VERBATIM_SHM_EAGER_SIZE=1k", "VERBATIM_SHM_INBOX_SIZE=16k",
            "VERBATIM_CORE_PROTO_INFO=true");

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void fragmentCases(int ranks) throws Exception {
        MpiJob job = MpiJob.run(ranks, 150, SMALL_RECORDS, "256m", FragmentProgram.class, "896")
                .assertAllPassed(ranks, 1);
        assertTrue(job.err().contains("fragments (forced where eager records can be claimed)"),
                job::report);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void everyConstructorInFragments(int ranks) throws Exception {
        MpiJob.run(ranks, 150, List.of("VERBATIM_CORE_DATATYPE_SCHEME=fragments",
                        "VERBATIM_CORE_EAGER_LIMIT=64", "VERBATIM_SHM_EAGER_SIZE=256"), "256m",
                DatatypeProgram.class)
                .assertAllPassed(ranks, 500);
    }

    /** Auto picks fragments on shm (and the program still passes). */
    @Test
    void autoOnShm() throws Exception {
        MpiJob job = MpiJob.run(2, 150, List.of("VERBATIM_CORE_PROTO_INFO=true",
                        "VERBATIM_SHM_EAGER_SIZE=1k", "VERBATIM_SHM_INBOX_SIZE=16k"), "256m",
                FragmentProgram.class, "896")
                .assertAllPassed(2, 2);
        assertTrue(job.err().contains("eager fragments up to 1048576 B, above them auto"),
                job::report);
    }

    /** With type signatures checked: the first fragment carries the sender's signature. */
    @Test
    void typeSignaturesInTheFirstFragment() throws Exception {
        List<String> env = new java.util.ArrayList<>(SMALL_RECORDS);
        env.add("VERBATIM_CORE_CHECK_TYPES=true");
        MpiJob.run(2, 150, env, "256m", FragmentProgram.class, "896").assertAllPassed(2, 1);
        MpiJob job = MpiJob.run(2, 150, env, "256m", TypeCheckProgram.class, "on")
                .assertAllPassed(2, 0);
        assertTrue(job.out().contains("SUMMARY rank 1 passed=28 failed=0"), job::report);
    }
}
