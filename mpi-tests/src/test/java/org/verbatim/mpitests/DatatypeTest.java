package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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

    /**
     * Layouts through RPUT (the receiver registers a staging buffer, the sender writes the packed
     * message, the receiver unpacks) and with a small eager limit, so most messages of the
     * program are rendezvous; without cross-memory attach (the emulated RDMA path).
     */
    @Test
    void pointToPointThroughRputWithoutCma() throws Exception {
        MpiJob job = MpiJob.run(2, 150, List.of("VERBATIM_CORE_RENDEZVOUS=rput",
                        "VERBATIM_CORE_EAGER_LIMIT=64", "VERBATIM_SHM_CMA=false",
                        "VERBATIM_CORE_PROTO_INFO=true"), "256m", DatatypeProgram.class)
                .assertAllPassed(2, 500);
        assertTrue(job.err().contains("layout            0..64 B: eager, packed straight into the claimed slot"), job::report);
        assertTrue(job.err().contains("RPUT of a packed staging buffer"), job::report);
    }

    /**
     * Every derived type of the program through each of the runtime's layout schemes, forced,
     * with a 64 B eager limit so nearly every message is a rendezvous: the schemes walk the
     * committed form's blocks ({@code TypeLayout}) on both sides.
     */
    @ParameterizedTest
    @ValueSource(strings = {"generic", "multi-w", "p-rrs"})
    void pointToPointThroughEachScheme(String scheme) throws Exception {
        MpiJob.run(2, 150, List.of("VERBATIM_CORE_DATATYPE_SCHEME=" + scheme,
                        "VERBATIM_CORE_EAGER_LIMIT=64"), "256m", DatatypeProgram.class)
                .assertAllPassed(2, 500);
    }

    /**
     * Multi-w with one post per block instead of list posts (the paper's "single post",
     * {@code verbatim.core.datatype-list-post=false}): the same program, every block its own
     * process_vm_writev over shared memory.
     */
    @Test
    void multiWWithSinglePosts() throws Exception {
        MpiJob job = MpiJob.run(2, 150, List.of("VERBATIM_CORE_DATATYPE_SCHEME=multi-w",
                        "VERBATIM_CORE_DATATYPE_LIST_POST=false", "VERBATIM_CORE_EAGER_LIMIT=64",
                        "VERBATIM_CORE_PROTO_INFO=true"), "256m", DatatypeProgram.class)
                .assertAllPassed(2, 500);
        assertTrue(job.err().contains("single posts"), job::report);
    }

    /**
     * The segment schemes forced at 2, 3 and 4 ranks: segments of 1000 bytes (cut points
     * anywhere in the blocks) and pools of 16 segments, so concurrent messages run the pools
     * dry and fall back to dynamic buffers; over cross-memory attach (write-with-immediate,
     * gather writes, list posts).
     */
    @ParameterizedTest
    @CsvSource({"bc-spup, 2", "bc-spup, 3", "bc-spup, 4", "rwg-up, 2", "rwg-up, 3", "rwg-up, 4"})
    void pointToPointThroughTheSegmentSchemes(String scheme, int ranks) throws Exception {
        MpiJob job = MpiJob.run(ranks, 150, List.of("VERBATIM_CORE_DATATYPE_SCHEME=" + scheme,
                        "VERBATIM_CORE_EAGER_LIMIT=64", "VERBATIM_CORE_DATATYPE_SEGMENT=1000",
                        "VERBATIM_CORE_DATATYPE_POOL=16000", "VERBATIM_CORE_PROTO_INFO=true"),
                "256m", DatatypeProgram.class)
                .assertAllPassed(ranks, 500);
        assertTrue(job.err().contains(scheme + " (forced"), job::report);
    }

    /** The segment schemes over emulated RDMA (no cross-memory attach): writes are messages. */
    @ParameterizedTest
    @ValueSource(strings = {"bc-spup", "rwg-up"})
    void segmentSchemesWithoutCma(String scheme) throws Exception {
        MpiJob.run(2, 150, List.of("VERBATIM_CORE_DATATYPE_SCHEME=" + scheme,
                        "VERBATIM_CORE_EAGER_LIMIT=64", "VERBATIM_CORE_DATATYPE_SEGMENT=1000",
                        "VERBATIM_SHM_CMA=false"), "256m", DatatypeProgram.class)
                .assertAllPassed(2, 500);
    }

    /**
     * The datatype paper's MPI_Alltoall type (blocks of 1, 2, 4, ... ints with gaps as long as
     * them) at 8 ranks as the paper ran it, eager and rendezvous sizes, struct to struct, to and
     * from contiguous bytes, blocking and nonblocking; gaps checked untouched.
     */
    @Test
    void growingStructAlltoallAtEightRanks() throws Exception {
        MpiJob.run(8, 180, List.of(), "128m", GrowingStructAlltoallProgram.class)
                .assertAllPassed(8, 18);
    }

    /**
     * The collectives that do not write a whole receive buffer (v-variants with holes, in-place
     * forms, PROC_NULL neighbours, inter-communicator rooted and v collectives), blocking and
     * nonblocking: {@link DatatypeGapsProgram}.
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void collectivesLeaveWhatTheyDoNotWrite(int ranks) throws Exception {
        MpiJob.run(ranks, 150, List.of(), "256m", DatatypeGapsProgram.class)
                .assertAllPassed(ranks, 12);
    }

    /**
     * A boolean[] with the plain BOOLEAN type through the same collectives: the elements they do
     * not write stay as they were ({@link BooleanGapsProgram}).
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void booleanCollectivesLeaveWhatTheyDoNotWrite(int ranks) throws Exception {
        MpiJob.run(ranks, 120, List.of(), "256m", BooleanGapsProgram.class)
                .assertAllPassed(ranks, 7);
    }

    /** A repeated 64 KiB derived-type bcast and gatherv allocates no message-sized array. */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void collectiveImagesAreNotHeapArrays(int ranks) throws Exception {
        MpiJob.run(ranks, 150, List.of(), "256m", DatatypeAllocationProgram.class)
                .assertAllPassed(ranks, 4);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void collectives(int ranks) throws Exception {
        MpiJob.run(ranks, 150, List.of(), "256m", DatatypeCollectivesProgram.class)
                .assertAllPassed(ranks, 100);
    }
}
