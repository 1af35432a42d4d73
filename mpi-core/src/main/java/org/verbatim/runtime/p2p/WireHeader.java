package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.lang.foreign.ValueLayout;

/**
 * Layout of the header that starts every message the point-to-point protocols send.
 *
 * <pre>
 *  0       1       2               4               8
 *  +-------+-------+---------------+---------------+
 *  | kind  | flags | type signature|  context id   |
 *  +-------+-------+---------------+---------------+
 *  8               12              16
 *  | source (communicator rank)    |      tag      |
 *  +-------------------------------+---------------+
 * 16                                               24
 *  |     length: payload bytes of the MPI message   |
 * 24                                               32
 *  |  request id (sender's, or target's for replies)|
 *  +------------------------------------------------+  (32: end of EAGER, ACK, FIN)
 * 32                                               40
 *  |  address of the sender's registered data (RTS) |
 * 40                                               48
 *  |  remote key of that registration (RTS)         |
 *  +------------------------------------------------+  (48: end of RTS)
 * 48                                               56
 *  |  receiver's request id (CTS)                   |
 *  +------------------------------------------------+  (56: end of CTS)
 * </pre>
 *
 * The type signature is 0 unless {@code verbatim.core.check-types} is on: then an EAGER or RTS
 * carries the 16-bit code of the sender's type signature (see {@link TypeCheck}).
 *
 * A CTS (RPUT) reuses the fields: LENGTH is the number of bytes the receiver accepts, REQUEST the
 * sender's id, ADDRESS and REMOTE_KEY the receiver's registered buffer, TAG the 32-bit token the
 * sender puts in the closing write-with-immediate, and RECEIVER_REQUEST the id a PUT_FIN names.
 *
 * Fields are in native byte order: peers of one job share the byte order (checked at start-up
 * through the bootstrap for network transports).
 */
public final class WireHeader {
    public static final int KIND = 0;
    public static final int FLAGS = 1;
    public static final int SIGNATURE = 2;
    public static final int CONTEXT = 4;
    public static final int SOURCE = 8;
    public static final int TAG = 12;
    public static final int LENGTH = 16;
    public static final int REQUEST = 24;
    public static final int ADDRESS = 32;
    public static final int REMOTE_KEY = 40;
    public static final int RECEIVER_REQUEST = 48;

    public static final int BASE_SIZE = 32;
    public static final int RTS_SIZE = 48;
    public static final int CTS_SIZE = 56;

    /** Eager data follows the header. */
    public static final byte EAGER = 1;
    /** Rendezvous request to send: the receiver reads the data from ADDRESS/REMOTE_KEY. */
    public static final byte RTS = 2;
    /** Rendezvous finished: the receiver has read the data (REQUEST = sender's id). */
    public static final byte FIN = 3;
    /** Synchronous-mode eager message was matched (REQUEST = sender's id). */
    public static final byte SYNC_ACK = 4;
    /** RPUT clear to send: the sender RDMA-writes into ADDRESS/REMOTE_KEY (see the CTS layout). */
    public static final byte CTS = 5;
    /** RPUT finished without an immediate: the data is in place (REQUEST = receiver's id). */
    public static final byte PUT_FIN = 6;

    /** The receiver gives back eager credit: LENGTH bytes (see {@link EagerCredit}). */
    public static final byte CREDIT = 12;
    /** An EAGER message (the same layout and flags) sent above the eager limit against the
     *  receiver's credit: the receiver gives its bytes back once it has taken it. */
    public static final byte EAGER_CREDITED = 13;

    /**
     * First eager fragment of a message larger than one eager record (a layout packed straight
     * into the records, see {@link FragmentSender}): the common header with LENGTH the whole
     * message's bytes, then the first fragment's data. Kinds 7-9 are {@link SegmentWire}'s.
     */
    public static final byte FRAG_FIRST = 10;
    /**
     * A later eager fragment: LENGTH is the offset of its data in the message, REQUEST the whole
     * message's bytes; the other fields are unused but FLAGS, which in both fragment kinds holds
     * the padding before the data (see {@link #FRAG_SLACK}). Fragments of one message follow
     * each other with no other point-to-point message of the same sender between them.
     */
    public static final byte FRAG = 11;
    /**
     * Bytes a fragment's record holds beyond its header and data: the data starts {@link #FLAGS}
     * bytes after the header (0 to 48: padding that puts it on a cache line, where the copies
     * into and out of the record run at full speed), and the record is always {@code BASE_SIZE +
     * FRAG_SLACK + data} bytes long, so its data length is known without the padding. 80 rather
     * than 48: with shm's 16-byte record header a fragment record is then a whole number of cache
     * lines (16 + 32 + 80 + a multiple of 64), so a record that starts on a line ends on one and
     * the next fragment's record starts on a line too (the consumer's zeroing of a consumed record
     * then runs on whole lines as well).
     */
    public static final int FRAG_SLACK = 80;
    /** The most padding a fragment's data takes to reach a cache line. */
    public static final int FRAG_MAX_PADDING = 48;

    /** flag: the sender waits for SYNC_ACK (synchronous mode). */
    public static final byte FLAG_SYNC = 1;
    /** flag on an RTS: the sender asks for RPUT (answer with CTS), not RGET. */
    public static final byte FLAG_RPUT = 2;
    /** flag on a CTS: close with a PUT_FIN message, not a write-with-immediate. */
    public static final byte FLAG_PUT_FIN = 4;
    /** flag on a FIN or PUT_FIN: the transfer failed (a completion with an error status); the
     *  request on the other side ends with MPI_ERR_OTHER instead of waiting forever. */
    public static final byte FLAG_ERROR = 8;
    /** flag on a CTS: the receiver's blocks follow the header as (address, length) pairs of
     *  longs (the multi-w datatype scheme); the sender writes into them, not at ADDRESS. */
    public static final byte FLAG_LAYOUT = 16;
    /** flag on an RTS (with FLAG_RPUT): the sender moves the data in segments (bc-spup,
     *  rwg-up); the receiver answers with a SEG_CTS (see {@link SegmentWire}). */
    public static final byte FLAG_SEGMENTS = 32;
    /** flag on a CTS with FLAG_LAYOUT: the body is a reference to the receiver's committed type
     *  (and its flattened form the first time), not a block list (see {@link CtsLayouts}). */
    public static final byte FLAG_LAYOUT_REF = 64;

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private WireHeader() {
    }

    // Static final VarHandles, not MemorySegment.get/set with a layout argument: the same code
    // once compiled by C2, but three times cheaper in profiled (tier-3) code and twice in C1
    // code, where a program's first messages run (see HotPathWarmup).
    private static final VarHandle I8 = ValueLayout.JAVA_BYTE.varHandle();
    private static final VarHandle I32 = INT.varHandle();
    private static final VarHandle I64 = LONG.varHandle();
    /** The first two header words written as longs (the byte offsets are those of a little-endian host). */
    private static final boolean PACKED = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    /** The whole address space, for the by-address accessors ({@link #writeAt}, {@link #firstAt}). */
    private static final MemorySegment ALL = org.verbatim.spi.support.AddressSpace.ALL;

    public static byte kind(MemorySegment m, long at) {
        return (byte) I8.get(m, at + KIND);
    }

    public static byte flags(MemorySegment m, long at) {
        return (byte) I8.get(m, at + FLAGS);
    }

    public static int context(MemorySegment m, long at) {
        return (int) I32.get(m, at + CONTEXT);
    }

    public static int source(MemorySegment m, long at) {
        return (int) I32.get(m, at + SOURCE);
    }

    public static int tag(MemorySegment m, long at) {
        return (int) I32.get(m, at + TAG);
    }

    /**
     * The header's first word: kind, flags, signature and context in one load (decode with
     * {@link #flagsOf}, {@link #signatureOf}, {@link #contextOf}); with
     * {@link #sourceTag} and {@link #length}, an arrival's matching fields in three loads.
     */
    public static long first(MemorySegment m, long at) {
        return (long) I64.get(m, at + KIND);
    }

    /** The header's second word: source and tag (decode with {@link #sourceOf}, {@link #tagOf}). */
    public static long sourceTag(MemorySegment m, long at) {
        return (long) I64.get(m, at + SOURCE);
    }

    public static byte flagsOf(long first) {
        return (byte) (PACKED ? first >>> 8 : first >>> 48);
    }

    public static short signatureOf(long first) {
        return (short) (PACKED ? first >>> 16 : first >>> 32);
    }

    public static int contextOf(long first) {
        return (int) (PACKED ? first >>> 32 : first);
    }

    public static int sourceOf(long sourceTag) {
        return (int) (PACKED ? sourceTag : sourceTag >>> 32);
    }

    public static int tagOf(long sourceTag) {
        return (int) (PACKED ? sourceTag >>> 32 : sourceTag);
    }

    public static long length(MemorySegment m, long at) {
        return (long) I64.get(m, at + LENGTH);
    }

    public static long request(MemorySegment m, long at) {
        return (long) I64.get(m, at + REQUEST);
    }

    public static long address(MemorySegment m, long at) {
        return (long) I64.get(m, at + ADDRESS);
    }

    public static long remoteKey(MemorySegment m, long at) {
        return (long) I64.get(m, at + REMOTE_KEY);
    }

    public static long receiverRequest(MemorySegment m, long at) {
        return (long) I64.get(m, at + RECEIVER_REQUEST);
    }

    /** Writes the common fields into {@code h}: four 8-byte stores. */
    public static void write(MemorySegment h, byte kind, byte flags, int context, int source,
                             int tag, long length, long request) {
        if (PACKED) {
            I64.set(h, (long) KIND, (kind & 0xFFL) | (flags & 0xFFL) << 8 | (long) context << 32);
            I64.set(h, (long) SOURCE, (source & 0xFFFF_FFFFL) | (long) tag << 32);
        } else {
            I8.set(h, (long) KIND, kind);
            I8.set(h, (long) FLAGS, flags);
            h.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2, (short) 0);
            I32.set(h, (long) CONTEXT, context);
            I32.set(h, (long) SOURCE, source);
            I32.set(h, (long) TAG, tag);
        }
        I64.set(h, (long) LENGTH, length);
        I64.set(h, (long) REQUEST, request);
    }

    /**
     * As {@link #write}, into the header scratch at native address {@code h} (the runtime's own
     * {@link #BASE_SIZE} bytes, alive while their owner is): stores through one segment that
     * spans the address space, whose bounds and session checks the JIT folds away, where the
     * scratch segment's stores each pay for them in the tiers before C2 (issue 17).
     */
    public static void writeAt(long h, byte kind, byte flags, int context, int source, int tag,
                               long length, long request) {
        if (PACKED) {
            ALL.set(LONG, h + KIND, (kind & 0xFFL) | (flags & 0xFFL) << 8 | (long) context << 32);
            ALL.set(LONG, h + SOURCE, (source & 0xFFFF_FFFFL) | (long) tag << 32);
        } else {
            ALL.set(ValueLayout.JAVA_BYTE, h + KIND, kind);
            ALL.set(ValueLayout.JAVA_BYTE, h + FLAGS, flags);
            ALL.set(ValueLayout.JAVA_SHORT_UNALIGNED, h + SIGNATURE, (short) 0);
            ALL.set(INT, h + CONTEXT, context);
            ALL.set(INT, h + SOURCE, source);
            ALL.set(INT, h + TAG, tag);
        }
        ALL.set(LONG, h + LENGTH, length);
        ALL.set(LONG, h + REQUEST, request);
    }

    /** {@link #first} at native address {@code a} (a record the caller has bounds-checked). */
    static long firstAt(long a) {
        return ALL.get(LONG, a + KIND);
    }

    /** {@link #sourceTag} at native address {@code a}. */
    static long sourceTagAt(long a) {
        return ALL.get(LONG, a + SOURCE);
    }

    /** {@link #length} at native address {@code a}. */
    static long lengthAt(long a) {
        return ALL.get(LONG, a + LENGTH);
    }

    /** The sender's type-signature code (0: not checked). */
    public static short signature(MemorySegment m, long at) {
        return m.get(ValueLayout.JAVA_SHORT_UNALIGNED, at + SIGNATURE);
    }

    /** Sets the type-signature code of a header {@link #write} has written. */
    public static void writeSignature(MemorySegment h, short code) {
        h.set(ValueLayout.JAVA_SHORT_UNALIGNED, SIGNATURE, code);
    }

    public static void writeRemote(MemorySegment h, long address, long remoteKey) {
        I64.set(h, (long) ADDRESS, address);
        I64.set(h, (long) REMOTE_KEY, remoteKey);
    }

    public static void writeReceiverRequest(MemorySegment h, long request) {
        I64.set(h, (long) RECEIVER_REQUEST, request);
    }
}
