package org.verbatim.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * A committed type flattened for a peer: bounds and size plus the runs of one element, as bytes
 * that a receiver (or a one-sided target) turns back into a {@link CommittedType} and applies to
 * its own memory. Runs are the compressed {@code <offset, length>} list: a vector is one entry
 * however many blocks it has. {@link MessageShape#blocks} expands them when a scheme needs the
 * plain list.
 *
 * <pre>
 *  0  int  magic 'VDTL'      4  int  format version (1)
 *  8  long size             16  long lb            24  long extent
 * 32  long true lb          40  long true ub       48  long number of runs n
 * 56  n x {long offset, long block length, long stride, long repeat}
 * </pre>
 * Little-endian, whatever the host.
 */
public final class FlatLayout {
    static final int MAGIC = 0x4C544456; // "VDTL" little-endian
    static final int VERSION = 1;
    static final int HEADER = 56;
    static final int RUN = 32;
    private static final ValueLayout.OfLong LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final RunList runs;
    private final long size;
    private final long lb;
    private final long extent;
    private final long trueLb;
    private final long trueUb;

    FlatLayout(RunList runs, long size, long lb, long extent, long trueLb, long trueUb) {
        this.runs = runs;
        this.size = size;
        this.lb = lb;
        this.extent = extent;
        this.trueLb = trueLb;
        this.trueUb = trueUb;
    }

    /** Bytes of the serialised form. */
    public long byteSize() {
        return HEADER + (long) RUN * runs.count();
    }

    /** Writes the serialised form into {@code out} at {@code at}. */
    public void writeTo(MemorySegment out, long at) {
        if (at < 0 || at + byteSize() > out.byteSize()) {
            throw DatatypeException.argument("flattened layout needs " + byteSize()
                    + " bytes at " + at + ", the segment holds " + out.byteSize());
        }
        out.set(INT, at, MAGIC);
        out.set(INT, at + 4, VERSION);
        long[] head = {size, lb, extent, trueLb, trueUb, runs.count()};
        for (int i = 0; i < head.length; i++) {
            out.set(LONG, at + 8 + 8L * i, head[i]);
        }
        long p = at + HEADER;
        for (int r = 0; r < runs.count(); r++) {
            out.set(LONG, p, runs.offset(r));
            out.set(LONG, p + 8, runs.length(r));
            out.set(LONG, p + 16, runs.stride(r));
            out.set(LONG, p + 24, runs.repeat(r));
            p += RUN;
        }
    }

    public byte[] toBytes() {
        byte[] b = new byte[Math.toIntExact(byteSize())];
        writeTo(MemorySegment.ofArray(b), 0);
        return b;
    }

    /** Reads a serialised form, checking it is well made (a peer's bytes are not trusted). */
    public static FlatLayout read(MemorySegment in, long at) {
        if (at < 0 || at + HEADER > in.byteSize()) {
            throw DatatypeException.argument("flattened layout: " + (in.byteSize() - at)
                    + " bytes, the header alone is " + HEADER);
        }
        if (in.get(INT, at) != MAGIC || in.get(INT, at + 4) != VERSION) {
            throw DatatypeException.argument("flattened layout: bad magic or version");
        }
        long size = in.get(LONG, at + 8);
        long lb = in.get(LONG, at + 16);
        long extent = in.get(LONG, at + 24);
        long trueLb = in.get(LONG, at + 32);
        long trueUb = in.get(LONG, at + 40);
        long n = in.get(LONG, at + 48);
        if (n < 0 || n > (in.byteSize() - at - HEADER) / RUN || size < 0 || extent < 0
                || trueUb < trueLb) {
            throw DatatypeException.argument("flattened layout: inconsistent header");
        }
        RunBuilder b = new RunBuilder();
        long p = at + HEADER;
        for (long r = 0; r < n; r++, p += RUN) {
            long off = in.get(LONG, p);
            long len = in.get(LONG, p + 8);
            long stride = in.get(LONG, p + 16);
            long repeat = in.get(LONG, p + 24);
            if (len <= 0 || repeat <= 0) {
                throw DatatypeException.argument("flattened layout: run " + r + " is empty");
            }
            long first = Math.min(off, off + (repeat - 1) * stride);
            long last = Math.max(off, off + (repeat - 1) * stride) + len;
            if (first < trueLb || last > trueUb) {
                throw DatatypeException.argument("flattened layout: run " + r
                        + " lies outside the true bounds");
            }
            b.add(off, len, stride, repeat);
        }
        return new FlatLayout(b.build(), size, lb, extent, trueLb, trueUb);
    }

    public static FlatLayout read(byte[] bytes) {
        return read(MemorySegment.ofArray(bytes), 0);
    }

    /** The committed type this form describes (no tree: contents and element counts are not sent). */
    public CommittedType commit() {
        return CommittedType.ofRuns(runs, size, lb, extent, trueLb, trueUb);
    }
}
