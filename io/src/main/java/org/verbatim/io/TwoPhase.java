package org.verbatim.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.io.FileGroup;

/**
 * Collective reads and writes (MPI-3.1 13.4.3). When the members' accesses interleave in the
 * file (or the hints ask for it), two-phase collective buffering, as ROMIO's: the span the
 * members touch is cut into one file domain per aggregator; in rounds of {@code cb_buffer_size}
 * bytes, every member sends each aggregator the pieces of its access that fall into that
 * aggregator's window (offsets and, for a write, the data), and the aggregator makes one large
 * read or write of the window (a write with holes reads the window first, under a byte-range
 * lock, so bytes nobody wrote keep their value); for a read it sends each member its pieces
 * back. Otherwise every member moves its own extents.
 *
 * <p>Where several members write the same byte, the highest rank's data wins, in every window
 * alike: the outcome is that of the members writing one after the other in rank order.
 */
final class TwoPhase {
    /** File domains start at multiples of this (file-system block friendly). */
    static final long ALIGN = 64 << 10;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private final OpenFile file;
    private final FileGroup group;
    private final boolean write;
    private final Extents mine;
    private final Transfer data;
    private final int members;
    private final int aggregators;
    private long low;
    private long domain;
    private int error;
    private MpiError firstError;
    /** Reused native buffers: what goes to each member, and an aggregator's replies. */
    private final MemorySegment[] outbox;
    private final MemorySegment[] replybox;

    private TwoPhase(OpenFile file, boolean write, Extents mine, Transfer data) {
        this.file = file;
        this.group = file.group;
        this.write = write;
        this.mine = mine;
        this.data = data;
        this.members = group.size();
        this.aggregators = file.settings.aggregators(members);
        this.outbox = new MemorySegment[members];
        this.replybox = new MemorySegment[members];
    }

    /** Reused native buffer {@code r} of {@code boxes}, at least {@code bytes} long. */
    private static MemorySegment box(MemorySegment[] boxes, int r, long bytes) {
        if (boxes[r] == null || boxes[r].byteSize() < bytes) {
            boxes[r] = Arena.ofAuto().allocate(Math.max(bytes, 1 << 16), 64);
        }
        return boxes[r].asSlice(0, bytes);
    }

    /** Runs one collective access; returns the bytes this member moved. */
    static long run(OpenFile file, boolean write, Extents mine, Transfer data) {
        long[] all = file.group.allgather(new long[] {mine.low(), mine.high()});
        String mode = write ? file.settings.cbWrite() : file.settings.cbRead();
        boolean interleaved = interleaved(all);
        if (file.group.size() == 1 || mode.equals("disable")
                || (mode.equals("auto") && !interleaved)) {
            return file.independent(write, mine, data);
        }
        return new TwoPhase(file, write, mine, data).twoPhase(all);
    }

    /** True when two members' [low, high) ranges overlap. */
    static boolean interleaved(long[] lowHigh) {
        int n = lowHigh.length / 2;
        long[][] ranges = new long[n][];
        int k = 0;
        for (int r = 0; r < n; r++) {
            if (lowHigh[2 * r] < lowHigh[2 * r + 1]) {
                ranges[k++] = new long[] {lowHigh[2 * r], lowHigh[2 * r + 1]};
            }
        }
        long[][] used = Arrays.copyOf(ranges, k);
        Arrays.sort(used, (a, b) -> Long.compare(a[0], b[0]));
        for (int i = 1; i < k; i++) {
            if (used[i][0] < used[i - 1][1]) {
                return true;
            }
        }
        return false;
    }

    private long twoPhase(long[] lowHigh) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int r = 0; r < members; r++) {
            if (lowHigh[2 * r] < lowHigh[2 * r + 1]) {
                lo = Math.min(lo, lowHigh[2 * r]);
                hi = Math.max(hi, lowHigh[2 * r + 1]);
            }
        }
        if (lo >= hi) {
            return 0;
        }
        long fileSize = write ? 0 : file.size();
        low = lo / ALIGN * ALIGN;
        long span = hi - low;
        domain = Math.max(ALIGN, ((span + aggregators - 1) / aggregators + ALIGN - 1) / ALIGN
                * ALIGN);
        long cb = file.settings.cbBufferSize();
        long rounds = (domain + cb - 1) / cb;
        int me = aggregatorIndex(group.rank());
        MemorySegment window = me >= 0 ? file.window(cb) : null;
        for (long k = 0; k < rounds; k++) {
            round(k, cb, hi, me, window);
        }
        long[] errors = group.allgather(new long[] {error});
        if (firstError != null) {
            throw firstError;
        }
        for (int r = 0; r < errors.length; r++) {
            if (errors[r] != 0) {
                throw new MpiError((int) errors[r], file.io.path() + ": "
                        + ErrorClass.describe((int) errors[r]) + " (aggregator rank " + r + ")");
            }
        }
        return write ? mine.bytes() : mine.bytesBefore(fileSize);
    }

    /** Rank of aggregator {@code a}: spread evenly over the members. */
    private int aggregatorRank(int a) {
        return (int) ((long) a * members / aggregators);
    }

    private int aggregatorIndex(int rank) {
        for (int a = 0; a < aggregators; a++) {
            if (aggregatorRank(a) == rank) {
                return a;
            }
        }
        return -1;
    }

    /** Window [lo, hi) of aggregator {@code a} in round {@code k}; empty if lo >= hi. */
    private long[] window(int a, long k, long cb, long hi) {
        long dlo = low + a * domain;
        long dhi = Math.min(hi, dlo + domain);
        long wlo = dlo + k * cb;
        return new long[] {wlo, Math.min(dhi, wlo + cb)};
    }

    private void round(long k, long cb, long hi, int me, MemorySegment buffer) {
        MemorySegment[] out = new MemorySegment[members];
        long[][] dataAt = new long[aggregators][];
        for (int a = 0; a < aggregators; a++) {
            long[] w = window(a, k, cb, hi);
            if (w[0] >= w[1]) {
                continue;
            }
            Pieces p = pieces(w[0], w[1]);
            if (p.count > 0) {
                out[aggregatorRank(a)] = encode(p, aggregatorRank(a));
                dataAt[a] = p.dataAt;
            }
        }
        MemorySegment[] in = group.exchange(out);
        MemorySegment[] replies = new MemorySegment[members];
        if (me >= 0) {
            long[] w = window(me, k, cb, hi);
            if (w[0] < w[1]) {
                aggregate(in, buffer, replies);
            }
        }
        if (!write) {
            MemorySegment[] back = group.exchange(replies);
            for (int a = 0; a < aggregators; a++) {
                if (dataAt[a] != null) {
                    scatter(back[aggregatorRank(a)], out[aggregatorRank(a)], dataAt[a]);
                }
            }
        }
    }

    /** My pieces inside [wlo, whi): file offsets, lengths and where their data are. */
    private Pieces pieces(long wlo, long whi) {
        Pieces p = new Pieces();
        for (int i = mine.firstEndingAfter(wlo); i < mine.count() && mine.offset(i) < whi; i++) {
            long s = Math.max(mine.offset(i), wlo);
            long e = Math.min(mine.offset(i) + mine.length(i), whi);
            p.add(s, e - s, mine.dataAt(i) + s - mine.offset(i));
        }
        return p;
    }

    /** [int n][n x (long offset, long length)], then for a write the pieces' data. */
    private MemorySegment encode(Pieces p, int to) {
        long header = 4 + 16L * p.count;
        MemorySegment m = box(outbox, to, header + (write ? p.bytes : 0));
        m.set(INT, 0, p.count);
        long at = header;
        for (int i = 0; i < p.count; i++) {
            m.set(LONG, 4 + 16L * i, p.offset[i]);
            m.set(LONG, 12 + 16L * i, p.length[i]);
            if (write) {
                MemorySegment.copy(data.data, data.dataOffset + p.dataAt[i], m, at, p.length[i]);
                at += p.length[i];
            }
        }
        return m;
    }

    /** The aggregator's part of a round: one read or write of what the members sent. */
    private void aggregate(MemorySegment[] in, MemorySegment buffer, MemorySegment[] replies) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        long covered = 0;
        for (MemorySegment m : in) {
            int n = m.byteSize() == 0 ? 0 : m.get(INT, 0);
            for (int i = 0; i < n; i++) {
                long off = m.get(LONG, 4 + 16L * i);
                long len = m.get(LONG, 12 + 16L * i);
                lo = Math.min(lo, off);
                hi = Math.max(hi, off + len);
                covered += len;
            }
        }
        if (lo >= hi) {
            return;
        }
        try {
            if (write) {
                writeWindow(in, buffer, lo, hi, covered < hi - lo || !dense(in, lo, hi));
            } else {
                readWindow(in, buffer, lo, hi, replies);
            }
        } catch (IOException e) {
            MpiError f = FileErrors.of(file.io.path(), e);
            if (firstError == null) {
                firstError = f;
                error = f.errorClass();
            }
            if (!write) {
                for (int r = 0; r < members; r++) {
                    replies[r] = in[r].byteSize() == 0 ? null : zeroReply(in[r]);
                }
            }
        }
    }

    /** True when the pieces cover [lo, hi) without a gap (they may overlap). */
    private static boolean dense(MemorySegment[] in, long lo, long hi) {
        int total = 0;
        for (MemorySegment m : in) {
            total += m.byteSize() == 0 ? 0 : m.get(INT, 0);
        }
        long[][] ranges = new long[total][];
        int k = 0;
        for (MemorySegment m : in) {
            int n = m.byteSize() == 0 ? 0 : m.get(INT, 0);
            for (int i = 0; i < n; i++) {
                long off = m.get(LONG, 4 + 16L * i);
                ranges[k++] = new long[] {off, off + m.get(LONG, 12 + 16L * i)};
            }
        }
        Arrays.sort(ranges, (a, b) -> Long.compare(a[0], b[0]));
        long reached = lo;
        for (long[] r : ranges) {
            if (r[0] > reached) {
                return false;
            }
            reached = Math.max(reached, r[1]);
        }
        return reached >= hi;
    }

    private void writeWindow(MemorySegment[] in, MemorySegment buffer, long lo, long hi,
                             boolean holes) throws IOException {
        long n = hi - lo;
        try (OpenFile.RangeLock lock = holes || file.atomic() ? file.lock(lo, hi, false) : null) {
            if (holes) {
                long got = file.io.read(lo, buffer, 0, n);
                buffer.asSlice(got, n - got).fill((byte) 0);
            }
            for (MemorySegment m : in) {
                int count = m.byteSize() == 0 ? 0 : m.get(INT, 0);
                long at = 4 + 16L * count;
                for (int i = 0; i < count; i++) {
                    long off = m.get(LONG, 4 + 16L * i);
                    long len = m.get(LONG, 12 + 16L * i);
                    MemorySegment.copy(m, at, buffer, off - lo, len);
                    at += len;
                }
            }
            file.io.write(lo, buffer, 0, n);
        }
    }

    private void readWindow(MemorySegment[] in, MemorySegment buffer, long lo, long hi,
                            MemorySegment[] replies) throws IOException {
        long n = hi - lo;
        try (OpenFile.RangeLock lock = file.atomic() ? file.lock(lo, hi, true) : null) {
            long got = file.io.read(lo, buffer, 0, n);
            buffer.asSlice(got, n - got).fill((byte) 0);
        }
        for (int r = 0; r < members; r++) {
            MemorySegment m = in[r];
            int count = m.byteSize() == 0 ? 0 : m.get(INT, 0);
            if (count == 0) {
                continue;
            }
            long bytes = 0;
            for (int i = 0; i < count; i++) {
                bytes += m.get(LONG, 12 + 16L * i);
            }
            MemorySegment reply = box(replybox, r, bytes);
            long at = 0;
            for (int i = 0; i < count; i++) {
                long off = m.get(LONG, 4 + 16L * i);
                long len = m.get(LONG, 12 + 16L * i);
                MemorySegment.copy(buffer, off - lo, reply, at, len);
                at += len;
            }
            replies[r] = reply;
        }
    }

    private static MemorySegment zeroReply(MemorySegment request) {
        int count = request.get(INT, 0);
        long bytes = 0;
        for (int i = 0; i < count; i++) {
            bytes += request.get(LONG, 12 + 16L * i);
        }
        return MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
    }

    /** A read's reply from one aggregator into my data, piece by piece. */
    private void scatter(MemorySegment reply, MemorySegment request, long[] dataAt) {
        int count = request.get(INT, 0);
        long at = 0;
        for (int i = 0; i < count; i++) {
            long len = request.get(LONG, 12 + 16L * i);
            MemorySegment.copy(reply, at, data.data, data.dataOffset + dataAt[i], len);
            at += len;
        }
    }

    /** A member's pieces for one aggregator window. */
    private static final class Pieces {
        long[] offset = new long[4];
        long[] length = new long[4];
        long[] dataAt = new long[4];
        int count;
        long bytes;

        void add(long off, long len, long at) {
            if (count == offset.length) {
                offset = Arrays.copyOf(offset, count * 2);
                length = Arrays.copyOf(length, count * 2);
                dataAt = Arrays.copyOf(dataAt, count * 2);
            }
            offset[count] = off;
            length[count] = len;
            dataAt[count] = at;
            count++;
            bytes += len;
        }
    }
}
