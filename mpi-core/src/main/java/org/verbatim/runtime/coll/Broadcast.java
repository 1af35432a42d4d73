package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/**
 * Broadcast: a binomial tree for small payloads; for large ones the root scatters the payload
 * in p pieces down the binomial tree and a ring allgather puts them together (van de Geijn).
 */
public final class Broadcast {
    private Broadcast() {
    }

    public static Schedule build(Schedule s, MemorySegment buf, int root) {
        int p = s.size();
        if (p == 1 || buf.byteSize() == 0) {
            return s;
        }
        if (buf.byteSize() < s.group().settings().bcastLarge() || buf.byteSize() < p) {
            return binomial(s, buf, root);
        }
        return scatterAllgather(s, buf, root);
    }

    static Schedule binomial(Schedule s, MemorySegment buf, int root) {
        int p = s.size();
        int vr = (s.rank() - root + p) % p;
        int mask = 1;
        while (mask < p) {
            if ((vr & mask) != 0) {
                s.recv(((vr - mask) + root) % p, buf).waitAll();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            if (vr + mask < p) {
                s.send((vr + mask + root) % p, buf);
            }
        }
        return s.waitAll();
    }

    /** Piece {@code i} of {@code n} bytes cut in {@code p}: [start, end). */
    static long pieceStart(long n, int p, int i) {
        long chunk = (n + p - 1) / p;
        return Math.min(n, chunk * i);
    }

    static Schedule scatterAllgather(Schedule s, MemorySegment buf, int root) {
        int p = s.size();
        long n = buf.byteSize();
        int vr = (s.rank() - root + p) % p;
        // binomial scatter: vr receives pieces [vr, vr + subtree) from its parent
        int mask = 1;
        while (mask < p) {
            if ((vr & mask) != 0) {
                long a = pieceStart(n, p, vr);
                long b = pieceStart(n, p, Math.min(p, vr + mask));
                s.recv((vr - mask + root) % p, buf.asSlice(a, b - a)).waitAll();
                break;
            }
            mask <<= 1;
        }
        for (mask >>= 1; mask > 0; mask >>= 1) {
            int child = vr + mask;
            if (child < p) {
                long a = pieceStart(n, p, child);
                long b = pieceStart(n, p, Math.min(p, child + mask));
                s.send((child + root) % p, buf.asSlice(a, b - a));
            }
        }
        s.waitAll();
        // ring allgather of the p pieces
        int right = (vr + 1) % p;
        int left = (vr - 1 + p) % p;
        for (int i = 0; i < p - 1; i++) {
            int sendPiece = (vr - i + p) % p;
            int recvPiece = (vr - i - 1 + p) % p;
            long sa = pieceStart(n, p, sendPiece);
            long sb = pieceStart(n, p, sendPiece + 1);
            long ra = pieceStart(n, p, recvPiece);
            long rb = pieceStart(n, p, recvPiece + 1);
            s.send((right + root) % p, buf.asSlice(sa, sb - sa))
                    .recv((left + root) % p, buf.asSlice(ra, rb - ra)).waitAll();
        }
        return s;
    }
}
