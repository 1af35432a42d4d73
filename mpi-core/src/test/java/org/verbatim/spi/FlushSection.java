package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/**
 * {@link Endpoint#flush} ({@link Capability#FLUSH}): writes (and a write with immediate and a
 * fetch-and-add, where advertised) posted, then a flush, without waiting for the writes' own
 * completions; once the flush completes the initiator tells the target outside the transport,
 * and the target finds every earlier write's data in place while the initiator, too, waits
 * without progress (nothing may still be landing). Where every operation involved is
 * native the target checks without ever having called the transport during the round (one-sided
 * placement needs no help from it); where one of them is {@code *_EMULATED} the target progresses
 * until told, and then checks without further progress.
 */
public abstract class FlushSection extends AtomicsSection {
    private static final int ROUNDS = 3;
    /** The fetch-and-add word, at the start of the region; the writes follow it. */
    private static final long WORD = 0;
    private static final long FIRST_WRITE = 64 + 3;

    @Test
    void aCompletedFlushMeansEveryEarlierWriteIsPlaced() throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.has(Capability.FLUSH), "no FLUSH");
            boolean immediate = caps.has(Capability.WRITE_WITH_IMMEDIATE);
            boolean atomic = caps.atomics().contains(AtomicOp.FETCH_AND_ADD);
            boolean targetProgresses = !caps.hasNativeRdmaWrite() || atomic && !caps.hasNativeAtomics();
            long[] sizes = {1, 4095, 3L * caps.maxEager() + 7, Math.min(1 << 20, caps.put().maxSize())};
            long[] offsets = new long[sizes.length + 1];
            offsets[0] = FIRST_WRITE;
            for (int i = 0; i < sizes.length; i++) {
                offsets[i + 1] = offsets[i] + sizes[i] + 1 + i;
            }
            int regionLength = (int) offsets[sizes.length] + 7;
            if (r.rank == 1) {
                MemorySegment region = r.allocate(regionLength, (byte) 0);
                MemoryRegistration registration = r.transport.register(region);
                r.publish("region", registration);
                for (int round = 0; round < ROUNDS; round++) {
                    r.barrier();
                    if (targetProgresses) {
                        r.awaitSignal("flushed." + round);
                    } else {
                        r.awaitSignalWithoutProgress("flushed." + round);
                    }
                    byte[] expected = pattern(regionLength, round + 1);
                    for (int i = 0; i < sizes.length; i++) {
                        assertArrayEquals(bytes(MemorySegment.ofArray(expected), offsets[i], sizes[i]),
                                bytes(region, offsets[i], sizes[i]),
                                "write " + i + " (" + sizes[i] + " bytes) when the flush of round " + round
                                        + " completed");
                    }
                    if (immediate) {
                        long at = offsets[sizes.length];
                        assertArrayEquals(bytes(MemorySegment.ofArray(expected), at, 7), bytes(region, at, 7),
                                "write with immediate when the flush of round " + round + " completed");
                    }
                    if (atomic) {
                        assertEquals(round + 1L, region.get(ValueLayout.JAVA_LONG, WORD),
                                "fetch-and-add when the flush of round " + round + " completed");
                    }
                    r.signal("checked." + round).countDown();
                    r.barrier();
                }
                registration.close();
            } else {
                RemoteMemory region = r.awaitShared("region");
                MemorySegment source = r.allocate(regionLength, (byte) 0);
                MemoryRegistration registration = r.transport.register(source);
                MemorySegment result = r.allocate(8, (byte) 0);
                MemoryRegistration resultRegistration = r.transport.register(result);
                Endpoint endpoint = r.transport.endpoint(1);
                r.post(() -> endpoint.flush(1));
                r.awaitCompletion(1);
                for (int round = 0; round < ROUNDS; round++) {
                    source.copyFrom(MemorySegment.ofArray(pattern(regionLength, round + 1)));
                    r.barrier();
                    long base = 1000L * (round + 1);
                    for (int i = 0; i < sizes.length; i++) {
                        long at = offsets[i];
                        MemorySegment piece = source.asSlice(at, sizes[i]);
                        long wrId = base + i;
                        r.post(() -> endpoint.write(piece, region.address() + at, region.remoteKey(), wrId));
                    }
                    int ops = sizes.length;
                    if (immediate) {
                        long at = offsets[sizes.length];
                        long wrId = base + ops++;
                        r.post(() -> endpoint.writeWithImmediate(source.asSlice(at, 7), region.address() + at,
                                region.remoteKey(), 0xF1, wrId));
                    }
                    if (atomic) {
                        long wrId = base + ops++;
                        r.post(() -> endpoint.fetchAndAdd(result, region.address() + WORD, region.remoteKey(), 1,
                                wrId));
                    }
                    long flushId = base + 999;
                    r.post(() -> endpoint.flush(flushId));
                    r.awaitCompletion(flushId);
                    r.signal("flushed." + round).countDown();
                    // no progress of ours until the target has looked: nothing may still be landing
                    r.awaitSignalWithoutProgress("checked." + round);
                    for (int i = 0; i < ops; i++) {
                        r.awaitCompletion(base + i);
                    }
                    r.barrier();
                    assertEquals(1, r.timesCompleted(flushId), "completions of the flush");
                }
                registration.close();
                resultRegistration.close();
            }
        });
    }
}
