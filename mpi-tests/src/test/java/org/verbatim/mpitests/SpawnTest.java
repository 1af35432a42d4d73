package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link SpawnProgram} and {@link SpawnChildProgram} through mpirun. */
@Timeout(300)
class SpawnTest {
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void spawnWithArguments(int parents) throws Exception {
        MpiJob j = MpiJob.run(parents, 200, List.of(), "128m", SpawnProgram.class, "spawn")
                .assertAllPassed(parents, 15);
        assertChildrenDone(j, 2);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void spawnMultipleWithArgumentsAndWdir(int parents) throws Exception {
        MpiJob j = MpiJob.run(parents, 200, List.of(), "128m", SpawnProgram.class, "multiple")
                .assertAllPassed(parents, 15);
        assertChildrenDone(j, 3);
    }

    /**
     * Parents and children on one host over shared memory alone: tcp is not opened (the
     * children inherit the setting), so they can only reach each other through shm inboxes;
     * proto-info shows shm towards the other world and tcp nowhere. 1 parent: a world with no
     * other rank on the host, whose inbox is made when it connects.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void parentsAndChildrenOnOneHostUseSharedMemory(int parents) throws Exception {
        MpiJob j = MpiJob.run(parents, 200, List.of("VERBATIM_CORE_TRANSPORTS=shm", "VERBATIM_CORE_PROTO_INFO=true"),
                "128m", SpawnProgram.class, "spawn").assertAllPassed(parents, 15);
        assertChildrenDone(j, 2);
        assertTrue(!j.err().contains(": transport tcp"), j::report);
        for (int r = 0; r < parents; r++) {
            for (int child = 0; child < 2; child++) {
                // a parent's peers of the children's world are numbered from its world size up
                assertTrue(j.err().contains("verbatim: rank " + r + " -> rank " + (parents + child)
                        + ": transport shm"), j::report);
            }
        }
    }

    @Test
    void badSpawnsAreErrSpawnOnEveryParent() throws Exception {
        MpiJob.run(2, 120, List.of(), "128m", SpawnProgram.class, "bad").assertAllPassed(2, 5);
    }

    @Test
    void aChildThatDiesEndsTheJobNamingIt() throws Exception {
        MpiJob j = MpiJob.run(2, 120, List.of(), "128m", SpawnProgram.class, "crash");
        assertEquals(3, j.status(), j::report);
        assertTrue(j.err().matches("(?s).*mpirun: spawned rank 1 of world \\S+ \\(pid \\d+, java .*SpawnChildProgram crash\\)"
                + " exited with status 3; ending the job.*"), j::report);
        j.assertNoShmLeft();
    }

    private static void assertChildrenDone(MpiJob j, int children) {
        for (int r = 0; r < children; r++) {
            assertTrue(j.out().contains("CHILD DONE rank " + r + " failed=0"), j::report);
        }
        assertTrue(!j.out().contains("CHILD DONE rank " + children), j::report);
    }
}
