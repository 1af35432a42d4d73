package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.verbatim.spi.support.EmulationHarness.array;
import static org.verbatim.spi.support.EmulationHarness.bytes;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.WorkList;

/** Writes, reads, immediates, gather and scatter lists and list posts through the emulation. */
class EmulatedWriteReadTest {
    /** maxEager 256: chunks of 224 write bytes and 240 read bytes. */
    private static final long[] SIZES = {0, 1, 7, 223, 224, 225, 239, 240, 241, 3 * 224 + 5, 100_003};

    @Test
    void writesOfOddSizesArePlacedExactly() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment target = h.arena.allocate(200_000, 64);
            MemoryRegistration reg = h.ranks[1].register(target, org.verbatim.spi.Access.ALL);
            long at = 3;
            for (int i = 0; i < SIZES.length; i++) {
                MemorySegment source = h.pattern(SIZES[i], i);
                long wrId = 100 + i;
                long address = target.address() + at;
                h.post(() -> h.endpoint(0, 1).write(source, address, reg.remoteKey(), wrId));
                assertEquals(CompletionStatus.OK, h.awaitCompletion(0, wrId));
                assertArrayEquals(bytes((int) SIZES[i], i),
                        array(target.asSlice(at, SIZES[i])), "write of " + SIZES[i] + " bytes");
                assertEquals(0, target.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at + SIZES[i]),
                        "byte after a write of " + SIZES[i]);
                at += SIZES[i] + 1;
            }
        }
    }

    @Test
    void readsOfOddSizesFetchExactly() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment source = h.pattern(200_000, 42);
            MemoryRegistration reg = h.ranks[1].register(source, org.verbatim.spi.Access.ALL);
            for (int i = 0; i < SIZES.length; i++) {
                long n = SIZES[i];
                long from = 13L * i;
                MemorySegment local = h.arena.allocate(n + 1, 8);
                long wrId = 200 + i;
                h.post(() -> h.endpoint(0, 1).read(local.asSlice(0, n), source.address() + from,
                        reg.remoteKey(), wrId));
                assertEquals(CompletionStatus.OK, h.awaitCompletion(0, wrId));
                assertArrayEquals(Arrays.copyOfRange(bytes(200_000, 42), (int) from, (int) (from + n)),
                        array(local.asSlice(0, n)), "read of " + n + " bytes");
                assertEquals(0, local.get(java.lang.foreign.ValueLayout.JAVA_BYTE, n), "overrun");
            }
        }
    }

    @Test
    void immediateArrivesAfterTheDataAndOnlyOnce() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            int length = 5000;
            MemorySegment target = h.arena.allocate(length, 64);
            MemoryRegistration reg = h.ranks[1].register(target, org.verbatim.spi.Access.ALL);
            List<String> problems = new ArrayList<>();
            h.recorders[1].immediateHook = (source, imm) -> {
                if (!Arrays.equals(bytes(length, imm), array(target))) {
                    problems.add("data of " + imm + " not in place at its immediate");
                }
            };
            for (int round = 1; round <= 3; round++) {
                MemorySegment source = h.pattern(length, round);
                int imm = round;
                h.post(() -> h.endpoint(0, 1).writeWithImmediate(source, target.address(),
                        reg.remoteKey(), imm, imm));
                assertEquals(CompletionStatus.OK, h.awaitCompletion(0, round));
            }
            assertEquals(List.of(), problems);
            assertEquals(3, h.recorders[1].immediates.size());
            assertEquals(0, h.recorders[1].immediates.get(0)[0], "source of the immediate");
            assertTrue(h.recorders[1].received.isEmpty(), "emulation messages leaked to the runtime");
        }
    }

    @Test
    void gatherWriteCutsAtEveryEntryAndChunkBoundary() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            long[] cuts = {0, 0, 1, 224, 225, 700, 700, 701, 5000, 5003};
            long total = cuts[cuts.length - 1];
            MemorySegment whole = h.pattern(total, 77);
            IoVector list = new IoVector(16);
            for (int i = 0; i + 1 < cuts.length; i++) {
                // every entry from its own segment, so the gather really gathers
                MemorySegment piece = h.arena.allocate(cuts[i + 1] - cuts[i] + 3, 8);
                MemorySegment.copy(whole, cuts[i], piece, 3, cuts[i + 1] - cuts[i]);
                list.add(piece, 3, cuts[i + 1] - cuts[i]);
            }
            MemorySegment target = h.arena.allocate(total, 64);
            MemoryRegistration reg = h.ranks[1].register(target, org.verbatim.spi.Access.ALL);
            h.post(() -> h.endpoint(0, 1).writeGatherWithImmediate(list, target.address(),
                    reg.remoteKey(), 9, 1));
            list.clear(); // read during the call only
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 1));
            assertArrayEquals(array(whole), array(target));
            assertEquals(9, h.recorders[1].immediates.get(0)[1]);
            h.post(() -> h.endpoint(0, 1).writeGather(new IoVector(1), target.address(),
                    reg.remoteKey(), 2));
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 2), "an empty gather list");
        }
    }

    @Test
    void scatterReadFillsEveryEntryAcrossChunks() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            long[] lengths = {5, 0, 240, 1, 239, 1000, 0, 3};
            long total = Arrays.stream(lengths).sum();
            MemorySegment source = h.pattern(total, 5);
            MemoryRegistration reg = h.ranks[1].register(source, org.verbatim.spi.Access.ALL);
            IoVector list = new IoVector(lengths.length);
            List<MemorySegment> pieces = new ArrayList<>();
            for (long n : lengths) {
                MemorySegment piece = h.arena.allocate(n + 2, 8);
                pieces.add(piece);
                list.add(piece, 1, n);
            }
            h.post(() -> h.endpoint(0, 1).readScatter(list, source.address(), reg.remoteKey(), 1));
            assertEquals(CompletionStatus.OK, h.awaitCompletion(0, 1));
            byte[] expected = array(source);
            int at = 0;
            for (int i = 0; i < lengths.length; i++) {
                MemorySegment piece = pieces.get(i);
                assertArrayEquals(Arrays.copyOfRange(expected, at, at + (int) lengths[i]),
                        array(piece.asSlice(1, lengths[i])), "entry " + i);
                assertEquals(0, piece.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0), "before entry " + i);
                assertEquals(0, piece.get(java.lang.foreign.ValueLayout.JAVA_BYTE, lengths[i] + 1),
                        "after entry " + i);
                at += (int) lengths[i];
            }
        }
    }

    @Test
    void postListPostsWritesReadsAndImmediatesInOrder() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment remote = h.arena.allocate(4096, 64);
            MemoryRegistration reg = h.ranks[1].register(remote, org.verbatim.spi.Access.ALL);
            MemorySegment a = h.pattern(1000, 1);
            MemorySegment back = h.arena.allocate(1000, 8);
            WorkList list = new WorkList(4)
                    .write(a, remote.address(), reg.remoteKey(), 1)
                    .writeWithImmediate(a.asSlice(0, 10), remote.address() + 2000, reg.remoteKey(), 5, 2)
                    .read(back, remote.address(), reg.remoteKey(), 3);
            assertEquals(3, h.endpoint(0, 1).postList(list, 0));
            for (long wrId = 1; wrId <= 3; wrId++) {
                assertEquals(CompletionStatus.OK, h.awaitCompletion(0, wrId));
            }
            assertEquals(List.of(1L, 2L, 3L), h.recorders[0].completionOrder);
            assertArrayEquals(array(a), array(back), "the read sees the earlier write");
        }
    }
}
