package org.verbatim.transport.ib;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Layout of the connection-management datagrams sent over the UD queue pairs (after the 40 bytes
 * a UD receive buffer keeps for the global route header).
 *
 * <pre>
 *  0       4       8       12      16      20      24      28      32
 *  +-------+-------+-------+-------+-------+-------+-------+-------+
 *  | type  | from  |  to   | RC QPN|  PSN  |  LID  |  MTU  | UD QPN|
 *  +-------+-------+-------+-------+-------+-------+-------+-------+
 * 32                                                              48      52      56
 *  |                 GID of the sender's port (zero on InfiniBand)  | reads | epoch |
 *  +----------------------------------------------------------------+-------+-------+
 * 56                      68
 *  | read target (12 B)    |
 *  +-----------------------+
 * </pre>
 *
 * REQUEST (from the side that wants the connection) and REPLY (from the other side) carry the
 * sender's RC queue pair number, first PSN and port address; READY tells the replying side that
 * the requester's queue pair is ready to receive, so it may send. {@code reads} is how many RDMA
 * reads and atomics the sender's queue pair serves at once, the most the receiver may keep
 * outstanding towards it. {@code read target} is the address and key of the byte the
 * receiver's zero-length reads (flushes) read instead, on devices where those need one
 * ({@code VerbsEngine.putReadTarget}: Soft-RoCE, which refuses a retransmitted zero-length read;
 * zeros elsewhere). {@code epoch} counts the connections between the two ranks: 0 for the
 * first, one more each time a queue pair in error is re-established (a REQUEST of a newer epoch
 * asks the peer to drain and reset its side too; datagrams of an older one are stale). Fields
 * are in native order
 * (peers of one job share it).
 */
final class ConnectMessage {
    static final int TYPE = 0;
    static final int FROM = 4;
    static final int TO = 8;
    static final int QPN = 12;
    static final int PSN = 16;
    static final int LID = 20;
    static final int MTU = 24;
    static final int UD_QPN = 28;
    static final int GID = 32;
    static final int READS = 48;
    static final int EPOCH = 52;
    static final int READ_TARGET = 56;
    static final int LENGTH = 68;

    static final int REQUEST = 1;
    static final int REPLY = 2;
    static final int READY = 3;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;

    private ConnectMessage() {
    }

    static void write(MemorySegment m, int type, int from, int to, int qpn, int psn, int lid, int mtu,
                      int udQpn, byte[] gid, int reads, int epoch) {
        m.set(INT, TYPE, type);
        m.set(INT, FROM, from);
        m.set(INT, TO, to);
        m.set(INT, QPN, qpn);
        m.set(INT, PSN, psn);
        m.set(INT, LID, lid);
        m.set(INT, MTU, mtu);
        m.set(INT, UD_QPN, udQpn);
        m.set(INT, READS, reads);
        m.set(INT, EPOCH, epoch);
        MemorySegment g = m.asSlice(GID, 16);
        if (gid == null) {
            g.fill((byte) 0);
        } else {
            g.copyFrom(MemorySegment.ofArray(gid));
        }
    }

    static int get(MemorySegment m, long at, int field) {
        return m.get(INT, at + field);
    }

    /** The GID, or null when it is all zero (InfiniBand, addressed by LID). */
    static byte[] gid(MemorySegment m, long at) {
        byte[] g = m.asSlice(at + GID, 16).toArray(ValueLayout.JAVA_BYTE);
        for (byte b : g) {
            if (b != 0) {
                return g;
            }
        }
        return null;
    }
}
