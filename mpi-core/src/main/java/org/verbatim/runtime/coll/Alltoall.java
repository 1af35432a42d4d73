package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/**
 * Alltoall: Bruck's algorithm for small blocks on many ranks (log p rounds), all requests
 * posted at once for medium blocks, pairwise exchange for large ones (p-1 rounds, one peer at a
 * time). Alltoallv/w post all requests at once.
 */
public final class Alltoall {
    private Alltoall() {
    }

    public static Schedule build(Schedule s, MemorySegment send, MemorySegment recv, long block) {
        int p = s.size();
        int r = s.rank();
        CollSettings cfg = s.group().settings();
        s.local(() -> MemorySegment.copy(send, r * block, recv, r * block, block));
        if (p == 1) {
            return s;
        }
        if (block <= cfg.alltoallSmall() && p >= Math.max(2, cfg.bruckMinRanks())) {
            return bruck(s, send, recv, block);
        }
        if (block >= cfg.alltoallLarge()) {
            for (int i = 1; i < p; i++) {
                int to = Integer.bitCount(p) == 1 ? r ^ i : (r + i) % p;
                int from = Integer.bitCount(p) == 1 ? r ^ i : (r - i + p) % p;
                s.send(to, send.asSlice(to * block, block))
                        .recv(from, recv.asSlice(from * block, block)).waitAll();
            }
            return s;
        }
        for (int i = 1; i < p; i++) {
            int from = (r - i + p) % p;
            s.recv(from, recv.asSlice(from * block, block));
        }
        for (int i = 1; i < p; i++) {
            int to = (r + i) % p;
            s.send(to, send.asSlice(to * block, block));
        }
        return s.waitAll();
    }

    /**
     * Bruck: rotate so block j is for rank r+j; in round k send every block whose index has
     * bit k set to r + 2^k; finally block j came from rank r-j.
     */
    static Schedule bruck(Schedule s, MemorySegment send, MemorySegment recv, long block) {
        int p = s.size();
        int r = s.rank();
        MemorySegment work = s.temp(p * block);
        s.local(() -> {
            for (int j = 0; j < p; j++) {
                MemorySegment.copy(send, ((r + j) % p) * block, work, j * block, block);
            }
        });
        for (int k = 1; k < p; k <<= 1) {
            int n = 0;
            for (int j = 0; j < p; j++) {
                if ((j & k) != 0) {
                    n++;
                }
            }
            MemorySegment out = s.temp(n * block);
            MemorySegment in = s.temp(n * block);
            int kk = k;
            s.local(() -> {
                int i = 0;
                for (int j = 0; j < p; j++) {
                    if ((j & kk) != 0) {
                        MemorySegment.copy(work, j * block, out, (i++) * block, block);
                    }
                }
            });
            s.send((r + k) % p, out).recv((r - k + p) % p, in).waitAll();
            s.local(() -> {
                int i = 0;
                for (int j = 0; j < p; j++) {
                    if ((j & kk) != 0) {
                        MemorySegment.copy(in, (i++) * block, work, j * block, block);
                    }
                }
            });
        }
        return s.local(() -> {
            for (int j = 0; j < p; j++) {
                MemorySegment.copy(work, j * block, recv, ((r - j + p) % p) * block, block);
            }
        });
    }

    /**
     * Alltoallv/w: to rank i go {@code sendCounts[i]} bytes at {@code sendDispls[i]}; from rank
     * i come {@code recvCounts[i]} bytes to {@code recvDispls[i]} (all in bytes).
     */
    public static Schedule v(Schedule s, MemorySegment send, long[] sendCounts, long[] sendDispls,
                             MemorySegment recv, long[] recvCounts, long[] recvDispls) {
        int p = s.size();
        int r = s.rank();
        s.local(() -> MemorySegment.copy(send, sendDispls[r], recv, recvDispls[r],
                Math.min(sendCounts[r], recvCounts[r])));
        for (int i = 1; i < p; i++) {
            int from = (r - i + p) % p;
            s.recv(from, recv.asSlice(recvDispls[from], recvCounts[from]));
        }
        for (int i = 1; i < p; i++) {
            int to = (r + i) % p;
            s.send(to, send.asSlice(sendDispls[to], sendCounts[to]));
        }
        return s.waitAll();
    }
}
