package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.IntBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Collectives over a layout type on a singleton ({@link PackedImage}): every collective moves
 * its packed images through the schedule's pooled native scratch memory and gives it all back
 * when the schedule ends, fails or is never started; the bytes a collective does not write (the
 * gaps of the layout, the gaps between the blocks of a v-variant, in place the block a rank
 * keeps) come back unchanged; a repeated 64 KiB gather allocates no heap array of its size.
 */
class CollectiveImagesTest {
    private static final int SENTINEL = -7;
    private static Intracomm world;
    /** Two ints every three: 0, 1, 3, 4, ... (extent 5 ints: the last int is a gap too). */
    private static Datatype pairs;

    @BeforeAll
    static void init() throws MPIException {
        SingletonMpi.init();
        world = MPI.COMM_WORLD;
        pairs = Datatype.createResized(Datatype.createVector(2, 2, 3, MPI.INT), 0, 20);
        pairs.commit();
    }

    private static int[] iota(int n, int from) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = from + i;
        }
        return a;
    }

    private static int[] sentinels(int n) {
        int[] a = new int[n];
        Arrays.fill(a, SENTINEL);
        return a;
    }

    /** The int indices of packed int k of a message of {@code pairs}. */
    private static int at(int k) {
        int element = k / 4;
        int within = k % 4;
        return element * 5 + (within < 2 ? within : within + 1);
    }

    /** {@code n} packed ints of {@code from} (starting at packed int a) into {@code to} at b. */
    private static void place(int[] to, int b, int[] from, int a, int n) {
        for (int k = 0; k < n; k++) {
            to[at(b + k)] = from[at(a + k)];
        }
    }

    private static void noScratchLent() {
        assertEquals(0, world.engine().scratchLent(), "scratch memory not given back");
    }

    @Test
    void bcastGatherScatterKeepTheGaps() throws MPIException {
        int[] src = iota(10, 100);
        int[] b = src.clone();
        world.bcast(b, 2, pairs, 0);
        assertArrayEquals(src, b, "the root's buffer is only read");
        int[] g = sentinels(12);
        world.gather(src, 2, pairs, g, 2, pairs, 0);
        int[] want = sentinels(12);
        place(want, 0, src, 0, 8);
        assertArrayEquals(want, g);
        int[] s = sentinels(12);
        world.scatter(src, 2, pairs, s, 2, pairs, 0);
        assertArrayEquals(want, s);
        noScratchLent();
    }

    @Test
    void vVariantsWriteOnlyTheirBlocks() throws MPIException {
        int[] src = iota(20, 100);
        // one block of 2 elements at displacement 1: element 0 of the receive buffer is a gap
        int[] counts = {2};
        int[] displs = {1};
        int[] g = sentinels(16);
        world.gatherv(src, 2, pairs, g, counts, displs, pairs, 0);
        int[] want = sentinels(16);
        place(want, 4, src, 0, 8);
        assertArrayEquals(want, g, "gatherv");
        int[] ag = sentinels(16);
        world.allGatherv(src, 2, pairs, ag, counts, displs, pairs);
        assertArrayEquals(want, ag, "allGatherv");
        int[] sv = sentinels(12);
        world.scatterv(src, counts, displs, pairs, sv, 2, pairs, 0);
        int[] wantS = sentinels(12);
        place(wantS, 0, src, 4, 8);
        assertArrayEquals(wantS, sv, "scatterv");
        int[] a2av = sentinels(16);
        world.allToAllv(src, counts, displs, pairs, a2av, counts, displs, pairs);
        int[] wantA = sentinels(16);
        place(wantA, 4, src, 4, 8);
        assertArrayEquals(wantA, a2av, "allToAllv");
        int[] a2aw = sentinels(16);
        world.allToAllw(src, counts, new int[] {20}, new Datatype[] {pairs}, a2aw, counts,
                new int[] {20}, new Datatype[] {pairs});
        assertArrayEquals(wantA, a2aw, "allToAllw");
        noScratchLent();
    }

    @Test
    void inPlaceFormsLeaveTheirOwnBlockAndTheGapsAlone() throws MPIException {
        int[] buf = iota(16, 100);
        int[] before = buf.clone();
        world.gather(buf, 2, pairs, 0);
        assertArrayEquals(before, buf, "gather in place");
        world.gatherv(buf, new int[] {2}, new int[] {1}, pairs, 0);
        assertArrayEquals(before, buf, "gatherv in place");
        world.allGather(buf, 2, pairs);
        assertArrayEquals(before, buf, "allGather in place");
        world.allGatherv(buf, new int[] {2}, new int[] {1}, pairs);
        assertArrayEquals(before, buf, "allGatherv in place");
        world.scatterv(buf, new int[] {2}, new int[] {1}, pairs, 0);
        assertArrayEquals(before, buf, "scatterv in place");
        world.allReduce(buf, 2, pairs, MPI.SUM);
        assertArrayEquals(before, buf, "allReduce in place (one rank: the sum is the input)");
        world.scan(buf, 2, pairs, MPI.SUM);
        assertArrayEquals(before, buf, "scan in place");
        world.exScan(buf, 2, pairs, MPI.SUM);
        assertArrayEquals(before, buf, "exScan in place: rank 0's buffer is not written");
        world.reduce(buf, 2, pairs, MPI.MAX, 0);
        assertArrayEquals(before, buf, "reduce in place");
        // reduce-scatter in place: the result is the first block, the rest is left as it was
        world.reduceScatter(buf, new int[] {1}, pairs, MPI.SUM);
        assertArrayEquals(before, buf, "reduceScatter in place");
        noScratchLent();
    }

    @Test
    void aBooleanArrayWithAPlainTypeKeepsWhatIsNotWritten() throws MPIException {
        boolean[] src = {false, true, false};
        // gatherv, one block of 2 at element 1: elements 0 and 3 are not written
        boolean[] g = {true, true, true, true};
        world.gatherv(src, 2, MPI.BOOLEAN, g, new int[] {2}, new int[] {1}, MPI.BOOLEAN, 0);
        assertArrayEquals(new boolean[] {true, false, true, true}, g, "gatherv");
        boolean[] ag = {true, true, true, true};
        world.allGatherv(src, 2, MPI.BOOLEAN, ag, new int[] {2}, new int[] {1}, MPI.BOOLEAN);
        assertArrayEquals(new boolean[] {true, false, true, true}, ag, "allGatherv");
        boolean[] a2av = {true, true, true, true};
        world.allToAllv(new boolean[] {true, false, true, true}, new int[] {2}, new int[] {1},
                MPI.BOOLEAN, a2av, new int[] {2}, new int[] {2}, MPI.BOOLEAN);
        assertArrayEquals(new boolean[] {true, true, false, true}, a2av, "allToAllv");
        // in place: the root's own block is neither sent nor written
        boolean[] own = {false, true, false, true};
        world.gather(own, 2, MPI.BOOLEAN, 0);
        assertArrayEquals(new boolean[] {false, true, false, true}, own, "gather in place");
        world.gatherv(own, new int[] {2}, new int[] {1}, MPI.BOOLEAN, 0);
        assertArrayEquals(new boolean[] {false, true, false, true}, own, "gatherv in place");
        world.allGatherv(own, new int[] {2}, new int[] {1}, MPI.BOOLEAN);
        assertArrayEquals(new boolean[] {false, true, false, true}, own, "allGatherv in place");
        noScratchLent();
    }

    @Test
    void reductionsWriteTheLayoutOnly() throws MPIException {
        int[] src = iota(10, 100);
        int[] want = sentinels(10);
        place(want, 0, src, 0, 8);
        int[] r = sentinels(10);
        world.allReduce(src, r, 2, pairs, MPI.SUM);
        assertArrayEquals(want, r, "allReduce");
        r = sentinels(10);
        world.reduce(src, r, 2, pairs, MPI.SUM, 0);
        assertArrayEquals(want, r, "reduce");
        r = sentinels(10);
        world.scan(src, r, 2, pairs, MPI.SUM);
        assertArrayEquals(want, r, "scan");
        r = sentinels(10);
        world.exScan(src, r, 2, pairs, MPI.SUM);
        assertArrayEquals(sentinels(10), r, "exScan: rank 0's result is not written");
        noScratchLent();
    }

    @Test
    void nonblockingImagesLiveUntilTheScheduleEnds() throws MPIException {
        IntBuffer src = MPI.newIntBuffer(20);
        IntBuffer dst = MPI.newIntBuffer(16);
        for (int i = 0; i < 20; i++) {
            src.put(i, 100 + i);
        }
        for (int i = 0; i < 16; i++) {
            dst.put(i, SENTINEL);
        }
        Request r = world.iGatherv(src, 2, pairs, dst, new int[] {2}, new int[] {1}, pairs, 0);
        r.waitFor();
        int[] got = new int[16];
        dst.get(0, got);
        int[] want = sentinels(16);
        place(want, 4, iota(20, 100), 0, 8);
        assertArrayEquals(want, got);
        noScratchLent();
        Request a = world.iAllGather(src, 2, pairs, dst, 2, pairs);
        Request b = world.iBcast(src, 2, pairs, 0);
        b.waitFor();
        a.waitFor();
        noScratchLent();
    }

    @Test
    void aCallThatFailsAfterTakingImagesGivesThemBack() {
        int[] src = iota(20, 100);
        // the root's send block (3 elements) differs from its receive block (2): refused after
        // the send image was taken
        MPIException e = assertThrows(MPIException.class,
                () -> world.gather(src, 3, pairs, new int[20], 2, pairs, 0));
        assertEquals(MPI.ERR_TRUNCATE, e.getErrorClass());
        noScratchLent();
        // a receive buffer too small for its layout: refused while resolving it
        assertThrows(MPIException.class,
                () -> world.allGatherv(src, 2, pairs, new int[4], new int[] {2}, new int[] {1},
                        pairs));
        noScratchLent();
    }

    @Test
    void aRepeatedGatherOf64KiBAllocatesNoArrayOfItsSize() throws MPIException {
        Datatype columns = Datatype.createVector(256, 64, 128, MPI.INT); // 64 KiB packed
        columns.commit();
        int[] src = iota(256 * 128, 1);
        int[] dst = new int[256 * 128];
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 2000; i++) {
            world.gather(src, 1, columns, dst, 1, columns, 0);
            world.bcast(src, 1, columns, 0);
        }
        int calls = 2000;
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++) {
            world.gather(src, 1, columns, dst, 1, columns, 0);
            world.bcast(src, 1, columns, 0);
        }
        long perCall = (threads.getCurrentThreadAllocatedBytes() - before) / (2L * calls);
        assertTrue(perCall < 8 * 1024, perCall + " B allocated per call (a 64 KiB message)");
        assertEquals(src[128 * 255 + 63], dst[128 * 255 + 63]);
        noScratchLent();
        columns.free();
    }
}
