package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The nonblocking small-message path of issue 17 on a one-rank job (messages to itself): an
 * eager iSend completes when posted, completed receives go back for reuse only once their
 * request consumed the completion, reused receives deliver the right bytes to the right buffer,
 * and waitAll/testAll still report each request's outcome.
 */
class NonblockingReuseTest {
    @BeforeAll
    static void init() throws MPIException {
        SingletonMpi.init();
    }

    private static ByteBuffer filled(int n, int seed) {
        ByteBuffer b = MPI.newByteBuffer(n);
        for (int i = 0; i < n; i++) {
            b.put(i, (byte) (seed + i));
        }
        return b;
    }

    @Test
    void anEagerIsendIsCompleteWhenPosted() throws Exception {
        Comm w = MPI.COMM_WORLD;
        ByteBuffer in = MPI.newByteBuffer(8);
        Request s = w.iSend(filled(8, 3), 8, MPI.BYTE, 0, 41);
        assertTrue(s.test(), "an eager send the transport took is complete at once");
        assertTrue(s.isNull());
        w.recv(in, 8, MPI.BYTE, 0, 41);
        assertEquals(3 + 7, in.get(7));
    }

    @Test
    void windowsOfReusedReceivesDeliverEveryMessageToItsOwnBuffer() throws Exception {
        Comm w = MPI.COMM_WORLD;
        int window = 64;
        Request[] requests = new Request[2 * window];
        Object[] firstOps = new Object[window];
        for (int round = 0; round < 5; round++) {
            ByteBuffer[] in = new ByteBuffer[window];
            for (int i = 0; i < window; i++) {
                in[i] = MPI.newByteBuffer(16);
                requests[i] = w.iRecv(in[i], 16, MPI.BYTE, 0, 42);
                if (round == 0) {
                    firstOps[i] = requests[i].impl;
                }
            }
            if (round == 1) {
                // The first window's receive operations came back and serve this one.
                java.util.Set<Object> reused = java.util.Collections.newSetFromMap(
                        new java.util.IdentityHashMap<>());
                for (int i = 0; i < window; i++) {
                    reused.add(requests[i].impl);
                }
                int same = 0;
                for (Object o : firstOps) {
                    same += reused.contains(o) ? 1 : 0;
                }
                assertEquals(window, same, "receive operations reused");
            }
            for (int i = 0; i < window; i++) {
                requests[window + i] = w.iSend(filled(16, round * 100 + i), 16, MPI.BYTE, 0, 42);
            }
            Request.waitAll(requests);
            for (int i = 0; i < window; i++) {
                assertEquals((byte) (round * 100 + i), in[i].get(0), "round " + round + " message " + i);
                assertEquals((byte) (round * 100 + i + 15), in[i].get(15));
                assertTrue(requests[i].isNull());
            }
        }
    }

    @Test
    void aReceiveIsNotReusedWhileItsRequestHasNotTakenTheCompletion() throws Exception {
        Comm w = MPI.COMM_WORLD;
        ByteBuffer a = MPI.newByteBuffer(8);
        Request r = w.iRecv(a, 8, MPI.BYTE, 0, 43);
        Object op = r.impl;
        w.send(filled(8, 9), 8, MPI.BYTE, 0, 43);
        Status peek = null;
        while (peek == null) {
            peek = r.getStatus(); // completes, but does not consume
        }
        Request other = w.iRecv(MPI.newByteBuffer(8), 8, MPI.BYTE, 0, 44);
        assertNotSame(op, other.impl, "an unconsumed receive must not be handed out again");
        assertSame(op, r.impl);
        assertEquals(8, r.waitStatus().getCount(MPI.BYTE));
        assertEquals(9, a.get(0));
        other.cancel();
        other.waitFor();
    }

    @Test
    void testAllAndWaitAllReportATruncatedReceive() throws Exception {
        Comm w = MPI.COMM_WORLD;
        Request[] rs = {
            w.iRecv(MPI.newByteBuffer(4), 4, MPI.BYTE, 0, 45),
            w.iSend(filled(8, 1), 8, MPI.BYTE, 0, 45)
        };
        MPIException e = null;
        try {
            Request.waitAll(rs);
        } catch (MPIException x) {
            e = x;
        }
        assertTrue(e != null && e.getErrorClass() == MPI.ERR_TRUNCATE, "waitAll raises the truncation");
        assertTrue(rs[0].isNull() && rs[1].isNull(), "every request is retired all the same");
    }
}
