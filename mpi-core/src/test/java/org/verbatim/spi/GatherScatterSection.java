package org.verbatim.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gather write ({@link Capability#WRITE_GATHER}) and scatter read ({@link Capability#READ_SCATTER})
 * at odd cut points: entries of 1, 3, 7 and 4095 bytes at unaligned local offsets with gaps
 * between them, lists of one entry up to {@code maxIov} entries (at most 4096, so a transport that
 * advertises an unbounded list is tried with 4096), and entries around the eager size so that a
 * transport which moves data in chunks cuts inside entries. The remote range is unaligned too,
 * and the bytes on either side of it (and the local gaps, for reads) must stay untouched.
 */
public abstract class GatherScatterSection extends ConformanceHarness {
    private static final byte CANARY = (byte) 0x5A;
    /** Untouched bytes kept on each side of the remote range. */
    private static final int GUARD = 64;
    /** The remote range starts this far into the guarded region: unaligned on purpose. */
    private static final int REMOTE_SKEW = 5;
    private static final int MOST_ENTRIES_TRIED = 4096;

    /** One list: the local layout (offsets with gaps) and the data seed. */
    private record Layout(long[] offsets, long[] lengths, long localLength, long total, int seed) {
        static Layout of(long[] lengths, int seed) {
            long[] offsets = new long[lengths.length];
            long at = 3;
            long total = 0;
            for (int i = 0; i < lengths.length; i++) {
                offsets[i] = at;
                at += lengths[i] + 1 + i % 3;
                total += lengths[i];
            }
            return new Layout(offsets, lengths, at + 3, total, seed);
        }

        IoVector vector(MemorySegment local) {
            IoVector v = new IoVector(lengths.length);
            for (int i = 0; i < lengths.length; i++) {
                v.add(local, offsets[i], lengths[i]);
            }
            return v;
        }

        /** The entries' bytes of pattern(localLength, seed), concatenated. */
        byte[] gathered() {
            byte[] source = pattern((int) localLength, seed);
            byte[] out = new byte[(int) total];
            int p = 0;
            for (int i = 0; i < lengths.length; i++) {
                System.arraycopy(source, (int) offsets[i], out, p, (int) lengths[i]);
                p += (int) lengths[i];
            }
            return out;
        }
    }

    /** The lists tried, for a limit of {@code maxIov} entries and {@code maxTotal} bytes. */
    private static List<Layout> layouts(int maxIov, long maxTotal, int maxEager) {
        long e = maxEager;
        List<long[]> shapes = new ArrayList<>(List.of(
                new long[] {1}, new long[] {1, 3}, new long[] {3, 7, 1}, new long[] {4095, 1, 7},
                new long[] {e - 1, 3, e + 1, 7, 2 * e + 5, 1}));
        long[] cycle = {1, 3, 7, 4095};
        int most = Math.min(maxIov, MOST_ENTRIES_TRIED);
        for (int n : new int[] {Math.min(most, 16), most}) {
            long[] shape = new long[n];
            for (int i = 0; i < n; i++) {
                shape[i] = cycle[i % cycle.length];
            }
            shapes.add(shape);
        }
        List<Layout> layouts = new ArrayList<>();
        for (long[] shape : shapes) {
            long[] cut = Arrays.copyOf(shape, Math.min(shape.length, maxIov));
            while (cut.length > 1 && Arrays.stream(cut).sum() > maxTotal) {
                cut = Arrays.copyOf(cut, cut.length - 1);
            }
            if (Arrays.stream(cut).sum() <= maxTotal) {
                layouts.add(Layout.of(cut, layouts.size() + 1));
            }
        }
        return layouts;
    }

    private static long largest(List<Layout> layouts) {
        return layouts.stream().mapToLong(Layout::total).max().orElse(0);
    }

    @Test
    void gatherWriteAtOddCutPoints() throws Exception {
        gatherWrite(false);
    }

    @Test
    void gatherWriteWithImmediateArrivesAfterAllTheData() throws Exception {
        gatherWrite(true);
    }

    private void gatherWrite(boolean withImmediate) throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.has(Capability.WRITE_GATHER), "no WRITE_GATHER");
            if (withImmediate) {
                assumeTrue(caps.has(Capability.WRITE_WITH_IMMEDIATE), "no WRITE_WITH_IMMEDIATE");
            }
            List<Layout> layouts = layouts(caps.put().maxIov(), caps.put().maxSize(), caps.maxEager());
            int regionLength = (int) largest(layouts) + 2 * GUARD;
            if (r.rank == 1) {
                MemorySegment region = r.allocate(regionLength, CANARY);
                MemoryRegistration registration = r.transport.register(region);
                r.publish("region", registration);
                List<String> problems = new ArrayList<>();
                for (int c = 0; c < layouts.size(); c++) {
                    Layout layout = layouts.get(c);
                    byte[] expected = layout.gathered();
                    region.fill(CANARY);
                    final int round = c;
                    r.recorder.immediateHook = (source, imm) -> {
                        if (imm != 0x6A7E + round) {
                            problems.add("immediate " + imm + " in round " + round);
                        } else if (!Arrays.equals(expected, bytes(region, GUARD + REMOTE_SKEW, layout.total()))) {
                            problems.add("data of " + layout.lengths().length + " entries not in place at the immediate");
                        }
                    };
                    r.barrier();
                    if (withImmediate) {
                        r.awaitImmediates(c + 1);
                    }
                    r.barrier();
                    checkPlaced(region, layout, expected);
                }
                assertEquals(List.of(), problems);
                registration.close();
            } else {
                RemoteMemory region = r.awaitShared("region");
                Endpoint endpoint = r.transport.endpoint(1);
                for (int c = 0; c < layouts.size(); c++) {
                    Layout layout = layouts.get(c);
                    MemorySegment local = r.allocate(layout.localLength(), (byte) 0);
                    local.copyFrom(MemorySegment.ofArray(pattern((int) layout.localLength(), layout.seed())));
                    MemoryRegistration registration = r.transport.register(local);
                    IoVector list = layout.vector(local);
                    long remote = region.address() + GUARD + REMOTE_SKEW;
                    long wrId = 100 + c;
                    int imm = 0x6A7E + c;
                    r.barrier();
                    r.post(() -> withImmediate
                            ? endpoint.writeGatherWithImmediate(list, remote, region.remoteKey(), imm, wrId)
                            : endpoint.writeGather(list, remote, region.remoteKey(), wrId));
                    r.awaitCompletion(wrId);
                    r.barrier();
                    assertEquals(1, r.timesCompleted(wrId), "completions of work request " + wrId);
                    registration.close();
                }
            }
        });
    }

    private static void checkPlaced(MemorySegment region, Layout layout, byte[] expected) {
        String what = layout.lengths().length + " entries (" + layout.total() + " bytes)";
        assertArrayEquals(filled(GUARD + REMOTE_SKEW, CANARY), bytes(region, 0, GUARD + REMOTE_SKEW),
                "bytes before the range, " + what);
        assertArrayEquals(expected, bytes(region, GUARD + REMOTE_SKEW, layout.total()), what);
        long after = GUARD + REMOTE_SKEW + layout.total();
        assertArrayEquals(filled((int) (region.byteSize() - after), CANARY),
                bytes(region, after, region.byteSize() - after), "bytes after the range, " + what);
    }

    @Test
    void scatterReadAtOddCutPoints() throws Exception {
        runRanks(2, r -> {
            Capabilities caps = r.caps();
            assumeTrue(caps.has(Capability.READ_SCATTER), "no READ_SCATTER");
            List<Layout> layouts = layouts(caps.get().maxIov(), caps.get().maxSize(), caps.maxEager());
            int sourceLength = (int) largest(layouts) + 2 * GUARD;
            if (r.rank == 1) {
                MemorySegment source = r.allocate(sourceLength, (byte) 0);
                source.copyFrom(MemorySegment.ofArray(pattern(sourceLength, 77)));
                MemoryRegistration registration = r.transport.register(source, Access.REMOTE_READ);
                r.publish("source", registration);
                r.barrier();
                registration.close();
            } else {
                RemoteMemory source = r.awaitShared("source");
                byte[] remoteBytes = pattern(sourceLength, 77);
                Endpoint endpoint = r.transport.endpoint(1);
                for (int c = 0; c < layouts.size(); c++) {
                    Layout layout = layouts.get(c);
                    MemorySegment local = r.allocate(layout.localLength(), CANARY);
                    MemoryRegistration registration = r.transport.register(local);
                    IoVector list = layout.vector(local);
                    long wrId = 200 + c;
                    r.post(() -> endpoint.readScatter(list, source.address() + GUARD + REMOTE_SKEW,
                            source.remoteKey(), wrId));
                    r.awaitCompletion(wrId);
                    assertEquals(1, r.timesCompleted(wrId), "completions of work request " + wrId);
                    checkScattered(local, layout, remoteBytes);
                    registration.close();
                }
                r.barrier();
            }
        });
    }

    /** Each entry holds its part of the remote range; the gaps between entries kept the canary. */
    private static void checkScattered(MemorySegment local, Layout layout, byte[] remoteBytes) {
        byte[] expected = filled((int) layout.localLength(), CANARY);
        long p = GUARD + REMOTE_SKEW;
        for (int i = 0; i < layout.lengths().length; i++) {
            System.arraycopy(remoteBytes, (int) p, expected, (int) layout.offsets()[i], (int) layout.lengths()[i]);
            p += layout.lengths()[i];
        }
        assertArrayEquals(expected, bytes(local, 0, layout.localLength()),
                "scatter list of " + layout.lengths().length + " entries (" + layout.total() + " bytes)");
    }
}
