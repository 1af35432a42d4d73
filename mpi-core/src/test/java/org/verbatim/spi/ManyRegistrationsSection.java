package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * The target's checks hold for every registration, not only the first thousands: with
 * {@link #registrationsAlive()} registrations alive, a write to the last one without the right,
 * past its end, and with the key of one closed among them completes with
 * {@link CompletionStatus#REMOTE_ACCESS_ERROR}, and a good write near the end lands. (A
 * transport whose key table has a fixed size must not stop checking beyond it.)
 */
public abstract class ManyRegistrationsSection extends ProgressSection {
    /**
     * Registrations alive at once in {@link #checksHoldWithManyRegistrations}: 100,000 by default
     * (beyond shm's 65,536-entry key table). A transport that cannot hold so many lowers it in its
     * test subclass and says why.
     */
    protected int registrationsAlive() {
        return 100_000;
    }
    private static final int SLICE = 64;
    private static final byte CANARY = (byte) 0xE1;

    @Test
    void checksHoldWithManyRegistrations() throws Exception {
        final int count = registrationsAlive();
        runRanks(2, r -> {
            assumeTrue(r.caps().has(Capability.RDMA_WRITE), "no RDMA_WRITE");
            assumeFalse(r.caps().has(Capability.REMOTE_ACCESS_ERRORS_UNREPORTED), "the transport says "
                    + Capability.REMOTE_ACCESS_ERRORS_UNREPORTED + ": a refused write is not reported to it");
            long length = (long) (count + 2) * SLICE;
            if (r.rank == 1) {
                MemorySegment memory = r.allocate(length, CANARY);
                MemoryRegistration[] alive = new MemoryRegistration[count];
                for (int i = 0; i < count; i++) {
                    int access = i == count - 1 ? Access.LOCAL_WRITE | Access.REMOTE_READ : Access.ALL;
                    alive[i] = r.transport.register(memory.asSlice((long) i * SLICE, SLICE), access);
                }
                MemoryRegistration closed = alive[count - 2];
                r.publish("closed", closed);
                closed.close();
                r.publish("readOnly", alive[count - 1]);
                r.publish("writable", alive[count - 3]);
                r.barrier();
                byte[] expected = filled((int) length, CANARY);
                System.arraycopy(pattern(SLICE, 3), 0, expected, (count - 3) * SLICE, SLICE);
                assertArrayEquals(expected, bytes(memory, 0, length), "memory after the refused writes and the good one");
                for (int i = 0; i < count; i++) {
                    if (i != count - 2) {
                        alive[i].close();
                    }
                }
            } else {
                RemoteMemory closed = r.awaitShared("closed");
                RemoteMemory readOnly = r.awaitShared("readOnly");
                RemoteMemory writable = r.awaitShared("writable");
                MemorySegment local = r.allocate(SLICE, (byte) 0);
                local.copyFrom(MemorySegment.ofArray(pattern(SLICE, 3)));
                MemoryRegistration registration = r.transport.register(local);
                Endpoint endpoint = r.transport.endpoint(1);
                r.post(() -> endpoint.write(local, readOnly.address(), readOnly.remoteKey(), 1));
                r.post(() -> endpoint.write(local.asSlice(0, 16), writable.address() + SLICE - 8,
                        writable.remoteKey(), 2));
                r.post(() -> endpoint.write(local, closed.address(), closed.remoteKey(), 3));
                String[] what = {"", "without the right", "past the end", "with a closed key"};
                for (int wrId = 1; wrId <= 3; wrId++) {
                    assertEquals(CompletionStatus.describe(CompletionStatus.REMOTE_ACCESS_ERROR),
                            CompletionStatus.describe(r.awaitStatus(wrId)),
                            "a write " + what[wrId] + " among " + count + " registrations");
                }
                r.post(() -> endpoint.write(local, writable.address(), writable.remoteKey(), 4));
                r.awaitCompletion(4);
                registration.close();
                r.barrier();
            }
        });
    }
}
