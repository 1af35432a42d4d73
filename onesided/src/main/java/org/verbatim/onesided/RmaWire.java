package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The layout of one-sided messages. A message is the module's message kind and one or more
 * records; aggregation puts several records (small operations and a synchronisation record) in
 * one message. Native byte order (the peers share a host architecture).
 * <pre>
 *  message:  0        1        8
 *            +--------+--------+----------------- records -----------------+
 *            | kind   | unused | record | record | ...                     |
 *            +--------+--------+-------------------------------------------+
 *  record:   0      1      2      3      4          8          12         16            24           32
 *            +------+------+------+------+----------+----------+----------+-------------+------------+---------
 *            | type | elem | op   | flags| window   | token    | aux      | disp        | length     | payload
 *            +------+------+------+------+----------+----------+----------+-------------+------------+---------
 * </pre>
 * {@code disp} is the byte offset into the target's window memory (an address for dynamic
 * windows; for replies the offset into the origin's result), {@code length} the payload bytes
 * (for GET the bytes requested), {@code token} the origin's operation id that replies name, and
 * {@code aux} per type (lock kind, error class). The payload is padded to 8 bytes. A LAYOUT
 * record carries a target datatype's {@code FlatLayout} (its id in {@code disp}), which the
 * target keeps for the data records that name it ({@link #LAYOUT_DATA}).
 */
final class RmaWire {
    static final int MESSAGE_HEADER = 8;
    static final int RECORD_HEADER = 32;

    // record types
    static final int PUT = 1, ACC = 2, GET = 3, GACC = 4, CAS = 5, REPLY = 6, FINISH = 7,
            FLAG = 8, POST = 9, COMPLETE = 10, LOCK = 11, LOCK_GRANTED = 12, UNLOCK = 13,
            FLUSH = 14, DONE = 15, LAYOUT = 16;

    /** aux of LOCK: exclusive. */
    static final int LOCK_EXCLUSIVE = 1;

    private static final ValueLayout.OfByte B = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;

    private RmaWire() {
    }

    static long padded(long payload) {
        return (payload + 7) & ~7L;
    }

    static long recordBytes(long payload) {
        return RECORD_HEADER + padded(payload);
    }

    static void writeHeader(MemorySegment m, long at, int type, int elem, int op, int window,
                            int token, int aux, long disp, long length) {
        m.set(B, at, (byte) type);
        m.set(B, at + 1, (byte) elem);
        m.set(B, at + 2, (byte) op);
        m.set(B, at + 3, (byte) 0);
        m.set(I, at + 4, window);
        m.set(I, at + 8, token);
        m.set(I, at + 12, aux);
        m.set(L, at + 16, disp);
        m.set(L, at + 24, length);
    }

    static int type(MemorySegment m, long at) {
        return m.get(B, at) & 0xff;
    }

    static int elem(MemorySegment m, long at) {
        return m.get(B, at + 1) & 0xff;
    }

    static int op(MemorySegment m, long at) {
        return m.get(B, at + 2) & 0xff;
    }

    static int window(MemorySegment m, long at) {
        return m.get(I, at + 4);
    }

    static int token(MemorySegment m, long at) {
        return m.get(I, at + 8);
    }

    static int aux(MemorySegment m, long at) {
        return m.get(I, at + 12);
    }

    static long disp(MemorySegment m, long at) {
        return m.get(L, at + 16);
    }

    static long length(MemorySegment m, long at) {
        return m.get(L, at + 24);
    }

    /** Flags bit: a data record of a fence epoch, which the target counts. */
    static final int FENCED = 1;

    static void markFenced(MemorySegment m, long at) {
        m.set(B, at + 3, (byte) (m.get(B, at + 3) | FENCED));
    }

    /**
     * Flags bit: a data record whose target data follows a layout (a derived target datatype).
     * Its payload starts with {@link #LAYOUT_PREFIX} bytes: the layout's id (sent before in a
     * {@link #LAYOUT} record), the element count and the packed position of this piece; then the
     * piece's packed data. {@code length} counts the data only.
     */
    static final int LAYOUT_DATA = 2;
    static final int LAYOUT_PREFIX = 24;

    static void writeLayoutPrefix(MemorySegment m, long at, long typeId, long count, long from) {
        m.set(B, at + 3, (byte) (m.get(B, at + 3) | LAYOUT_DATA));
        m.set(L, at + RECORD_HEADER, typeId);
        m.set(L, at + RECORD_HEADER + 8, count);
        m.set(L, at + RECORD_HEADER + 16, from);
    }

    static boolean layoutData(MemorySegment m, long at) {
        return (m.get(B, at + 3) & LAYOUT_DATA) != 0;
    }

    static long layoutId(MemorySegment m, long at) {
        return m.get(L, at + RECORD_HEADER);
    }

    static long layoutCount(MemorySegment m, long at) {
        return m.get(L, at + RECORD_HEADER + 8);
    }

    static long layoutFrom(MemorySegment m, long at) {
        return m.get(L, at + RECORD_HEADER + 16);
    }

    /** True for the records a fence counts at the target (data operations of fence epochs). */
    static boolean counted(MemorySegment m, long at) {
        int type = type(m, at);
        return type >= PUT && type <= CAS && (m.get(B, at + 3) & FENCED) != 0;
    }
}
