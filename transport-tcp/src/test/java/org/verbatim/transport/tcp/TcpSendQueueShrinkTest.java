package org.verbatim.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.verbatim.spi.ConformanceHarness;
import org.verbatim.spi.TransportProvider;

/**
 * The send queue's hysteresis: a burst of large heap messages (their payload goes through the
 * queue, as a credited eager frame's unsent rest does) grows the sender's queue;
 * once the burst has drained and nothing has entered the queue for
 * {@link QueueSweep#QUEUE_IDLE_NANOS}, the queue is back at its first size, and a second burst
 * grows it again and arrives intact.
 */
class TcpSendQueueShrinkTest extends ConformanceHarness {
    /** A link's buffers at their first size: scratch, a 16 KiB queue and a 16 KiB receive buffer. */
    private static final long SMALL_BUFFERS = 64 << 10;
    private static final int LENGTH = 300 << 10;
    private static final int BURST = 6;

    @Override
    protected TransportProvider provider() {
        return new TcpTransportProvider();
    }

    @Test
    void aQueueGrownByABurstShrinksOnceIdleAndGrowsAgain() throws Exception {
        long idleMillis = QueueSweep.QUEUE_IDLE_NANOS / 1_000_000;
        runRanks(2, r -> {
            for (int round = 0; round < 2; round++) {
                if (r.rank == 1) {
                    for (int i = 0; i < BURST; i++) {
                        r.send(0, ints(round * BURST + i), pattern(LENGTH, round * BURST + i));
                    }
                    long grown = r.transport.communicationMemory();
                    assertTrue(grown > LENGTH, "the burst grew the queue: " + grown + " bytes");
                } else {
                    r.awaitReceived((round + 1) * BURST);
                }
                r.barrier();
                // drained and idle: the sender's queue goes back to its first size within a few
                // sweeps (the receiver's buffer held whole frames: unplaced runtime messages)
                long end = System.nanoTime() + 5_000_000_000L;
                while (r.transport.communicationMemory() >= SMALL_BUFFERS && r.rank == 1
                        && System.nanoTime() - end < 0) {
                    r.progressFor(idleMillis);
                }
                if (r.rank == 1) {
                    assertTrue(r.transport.communicationMemory() < SMALL_BUFFERS, "the sender's "
                            + "tcp buffers stayed at " + r.transport.communicationMemory() + " bytes");
                }
                r.barrier();
            }
            if (r.rank == 0) {
                for (int i = 0; i < 2 * BURST; i++) {
                    Received m = r.recorder.received.get(i);
                    assertEquals(i, m.intAt(0), "message order");
                    assertArrayEquals(pattern(LENGTH, i),
                            java.util.Arrays.copyOfRange(m.bytes(), 4, m.bytes().length));
                }
            }
        });
    }
}
