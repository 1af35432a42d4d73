package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * Who has to make progress, as the flags say. An operation advertised {@code *_EMULATED} is
 * carried out by the target's progress: while the target sleeps without calling its transport
 * (for some hundreds of milliseconds) the initiator, progressing all the time, sees no completion;
 * once the target progresses again it completes. A native operation (the flag without
 * {@code *_EMULATED}) completes while the target never calls its transport at all.
 *
 * <p>The target announces that it has left its last transport call before the initiator posts,
 * and it announces that it is about to progress again before it does; a completion seen while the
 * second announcement is still missing is a completion without the target's progress.
 */
public abstract class ProgressSection extends EagerClaimSection {
    private static final long TARGET_SLEEP_MILLIS = 400;
    private static final int LENGTH = 100_003;
    private static final long WORD = 8;

    private enum Op { WRITE, READ, FETCH_AND_ADD, GATHER_WRITE, SCATTER_READ }

    @Test
    void emulatedWriteWaitsForTheTargetsProgress() throws Exception {
        emulated(Capability.RDMA_WRITE_EMULATED, Op.WRITE);
    }

    @Test
    void emulatedReadWaitsForTheTargetsProgress() throws Exception {
        emulated(Capability.RDMA_READ_EMULATED, Op.READ);
    }

    @Test
    void emulatedAtomicWaitsForTheTargetsProgress() throws Exception {
        emulated(Capability.ATOMICS_EMULATED, Op.FETCH_AND_ADD);
    }

    @Test
    void emulatedGatherWriteWaitsForTheTargetsProgress() throws Exception {
        emulated(Capability.RDMA_WRITE_EMULATED, Op.GATHER_WRITE);
    }

    @Test
    void emulatedScatterReadWaitsForTheTargetsProgress() throws Exception {
        emulated(Capability.RDMA_READ_EMULATED, Op.SCATTER_READ);
    }

    @Test
    void nativeWriteCompletesWithoutTheTargetsProgress() throws Exception {
        nativeOp(Op.WRITE);
    }

    @Test
    void nativeReadCompletesWithoutTheTargetsProgress() throws Exception {
        nativeOp(Op.READ);
    }

    @Test
    void nativeAtomicCompletesWithoutTheTargetsProgress() throws Exception {
        nativeOp(Op.FETCH_AND_ADD);
    }

    @Test
    void nativeGatherWriteCompletesWithoutTheTargetsProgress() throws Exception {
        nativeOp(Op.GATHER_WRITE);
    }

    @Test
    void nativeScatterReadCompletesWithoutTheTargetsProgress() throws Exception {
        nativeOp(Op.SCATTER_READ);
    }

    private void emulated(Capability flag, Op op) throws Exception {
        runRanks(2, r -> {
            assumeTrue(r.caps().has(flag), "no " + flag);
            assumeOperation(r.caps(), op);
            if (r.rank == 1) {
                MemorySegment region = target(r);
                r.signal("quiet").countDown();
                Thread.sleep(TARGET_SLEEP_MILLIS);
                r.signal("progressing").countDown();
                r.barrier();
                checkTarget(region, op);
            } else {
                Endpoint endpoint = initiator(r);
                RemoteMemory region = r.awaitShared("region");
                MemorySegment local = r.allocate(LENGTH, (byte) 0);
                local.copyFrom(MemorySegment.ofArray(pattern(LENGTH, 2)));
                MemoryRegistration registration = r.transport.register(local);
                r.awaitSignal("quiet");
                post(r, endpoint, op, local, region, 1);
                long deadline = r.deadline();
                while (r.signal("progressing").getCount() > 0) {
                    r.transport.progress();
                    if (r.completedYet(1) && r.signal("progressing").getCount() > 0) {
                        fail(op + " completed while the target made no progress, yet the transport "
                                + "advertises it emulated");
                    }
                    r.checkDeadline(deadline, "the target to wake up");
                }
                r.awaitCompletion(1);
                checkInitiator(local, op);
                r.barrier();
                registration.close();
            }
        });
    }

    private void nativeOp(Op op) throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.caps();
            switch (op) {
                case WRITE, GATHER_WRITE -> assumeTrue(caps.hasNativeRdmaWrite(), "no native RDMA_WRITE");
                case READ, SCATTER_READ -> assumeTrue(caps.hasNativeRdmaRead(), "no native RDMA_READ");
                case FETCH_AND_ADD -> assumeTrue(caps.hasNativeAtomics(), "no native ATOMICS");
            }
            assumeOperation(caps, op);
            if (r.rank == 1) {
                MemorySegment region = target(r);
                r.signal("quiet").countDown();
                r.awaitSignalWithoutProgress("completed");
                checkTarget(region, op);
                r.barrier();
            } else {
                Endpoint endpoint = initiator(r);
                RemoteMemory region = r.awaitShared("region");
                MemorySegment local = r.allocate(LENGTH, (byte) 0);
                local.copyFrom(MemorySegment.ofArray(pattern(LENGTH, 2)));
                MemoryRegistration registration = r.transport.register(local);
                r.awaitSignal("quiet");
                post(r, endpoint, op, local, region, 1);
                r.awaitCompletion(1);
                r.signal("completed").countDown();
                checkInitiator(local, op);
                r.barrier();
                registration.close();
            }
        });
    }

    private static void assumeOperation(Capabilities caps, Op op) {
        switch (op) {
            case WRITE, READ -> { }
            case FETCH_AND_ADD -> assumeTrue(caps.atomics().contains(AtomicOp.FETCH_AND_ADD), "no FETCH_AND_ADD");
            case GATHER_WRITE -> assumeTrue(caps.has(Capability.WRITE_GATHER), "no WRITE_GATHER");
            case SCATTER_READ -> assumeTrue(caps.has(Capability.READ_SCATTER), "no READ_SCATTER");
        }
    }

    /** Rank 1: registers and publishes the region, and lets rank 0 connect while progressing. */
    private static MemorySegment target(Rank r) {
        MemorySegment region = r.allocate(LENGTH, (byte) 0);
        region.copyFrom(MemorySegment.ofArray(pattern(LENGTH, 1)));
        region.set(ValueLayout.JAVA_LONG, WORD, 41);
        r.publish("region", r.transport.register(region));
        r.awaitReceived(1);
        r.sendEmpty(0);
        r.barrier();
        return region;
    }

    /** Rank 0: connects both ways while both progress. */
    private static Endpoint initiator(Rank r) {
        r.sendEmpty(1);
        r.awaitReceived(1);
        r.barrier();
        return r.transport.endpoint(1);
    }

    private static void post(Rank r, Endpoint endpoint, Op op, MemorySegment local, RemoteMemory region,
                             long wrId) {
        switch (op) {
            case WRITE -> r.post(() -> endpoint.write(local, region.address(), region.remoteKey(), wrId));
            case READ -> r.post(() -> endpoint.read(local, region.address(), region.remoteKey(), wrId));
            case FETCH_AND_ADD -> r.post(() -> endpoint.fetchAndAdd(local.asSlice(0, 8),
                    region.address() + WORD, region.remoteKey(), 1, wrId));
            case GATHER_WRITE -> r.post(() -> endpoint.writeGather(thirds(local), region.address(),
                    region.remoteKey(), wrId));
            case SCATTER_READ -> r.post(() -> endpoint.readScatter(thirds(local), region.address(),
                    region.remoteKey(), wrId));
        }
    }

    /** The local range as a list of three entries. */
    private static IoVector thirds(MemorySegment local) {
        long third = local.byteSize() / 3;
        return new IoVector(3).add(local, 0, 1).add(local, 1, third).add(local, 1 + third, local.byteSize() - 1 - third);
    }

    private static void checkTarget(MemorySegment region, Op op) {
        switch (op) {
            case WRITE, GATHER_WRITE -> assertArrayEquals(pattern(LENGTH, 2), bytes(region, 0, LENGTH), "written data");
            case READ, SCATTER_READ -> assertArrayEquals(withWord(pattern(LENGTH, 1)), bytes(region, 0, LENGTH),
                    "read source");
            case FETCH_AND_ADD -> assertEquals(42, region.get(ValueLayout.JAVA_LONG, WORD), "word after the add");
        }
    }

    private static void checkInitiator(MemorySegment local, Op op) {
        switch (op) {
            case WRITE, GATHER_WRITE -> { }
            case READ, SCATTER_READ -> assertArrayEquals(withWord(pattern(LENGTH, 1)), bytes(local, 0, LENGTH),
                    "read data");
            case FETCH_AND_ADD -> assertEquals(41, local.get(ValueLayout.JAVA_LONG, 0), "old value");
        }
    }

    private static byte[] withWord(byte[] bytes) {
        MemorySegment.ofArray(bytes).set(ValueLayout.JAVA_LONG_UNALIGNED, WORD, 41);
        return bytes;
    }
}
