package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/**
 * Gather and scatter with equal blocks (binomial tree for small blocks, linear with all
 * requests posted at once for large ones), and their v-variants (linear).
 */
public final class Gathering {
    private Gathering() {
    }

    /**
     * Gather: {@code recv} (root only) holds p blocks of {@code block} bytes in rank order.
     * {@code send} is this rank's block; null at the root means in place (already in recv).
     */
    public static Schedule gather(Schedule s, MemorySegment send, MemorySegment recv, long block,
                                  int root) {
        int p = s.size();
        int r = s.rank();
        if (block >= s.group().settings().gatherLarge() || p <= 2) {
            if (r == root) {
                for (int i = 0; i < p; i++) {
                    if (i == r) {
                        if (send != null) {
                            s.local(() -> MemorySegment.copy(send, 0, recv, r * block, block));
                        }
                    } else {
                        s.recv(i, recv.asSlice(i * block, block));
                    }
                }
                return s.waitAll();
            }
            return s.send(root, send).waitAll();
        }
        // binomial: relative rank vr collects blocks [vr, vr + subtree) in relative order
        int vr = (r - root + p) % p;
        int subtree = 1;
        while ((vr & subtree) == 0 && subtree < p) {
            subtree <<= 1;
        }
        int mine = Math.min(subtree, p - vr);
        MemorySegment tmp = s.temp(mine * block);
        MemorySegment own = send != null ? send : recv.asSlice(r * block, block);
        s.local(() -> MemorySegment.copy(own, 0, tmp, 0, block));
        for (int mask = 1; mask < subtree && vr + mask < p; mask <<= 1) {
            int n = Math.min(mask, p - vr - mask);
            s.recv((vr + mask + root) % p, tmp.asSlice(mask * block, n * block));
        }
        s.waitAll();
        if (vr != 0) {
            return s.send((vr - subtree + root) % p, tmp).waitAll();
        }
        return s.local(() -> {
            for (int i = 0; i < p; i++) {
                int real = (i + root) % p;
                MemorySegment.copy(tmp, i * block, recv, real * block, block);
            }
        });
    }

    /**
     * Scatter: the root's {@code send} holds p blocks; each rank receives its block into
     * {@code recv} (null at the root means in place).
     */
    public static Schedule scatter(Schedule s, MemorySegment send, MemorySegment recv, long block,
                                   int root) {
        int p = s.size();
        int r = s.rank();
        if (block >= s.group().settings().gatherLarge() || p <= 2) {
            if (r == root) {
                for (int i = 0; i < p; i++) {
                    if (i == r) {
                        if (recv != null) {
                            s.local(() -> MemorySegment.copy(send, r * block, recv, 0, block));
                        }
                    } else {
                        s.send(i, send.asSlice(i * block, block));
                    }
                }
                return s.waitAll();
            }
            return s.recv(root, recv).waitAll();
        }
        int vr = (r - root + p) % p;
        int subtree = 1;
        while ((vr & subtree) == 0 && subtree < p) {
            subtree <<= 1;
        }
        int mine = Math.min(subtree, p - vr);
        MemorySegment tmp = s.temp(mine * block);
        if (vr == 0) {
            s.local(() -> {
                for (int i = 0; i < p; i++) {
                    MemorySegment.copy(send, ((i + root) % p) * block, tmp, i * block, block);
                }
            });
        } else {
            s.recv((vr - subtree + root) % p, tmp).waitAll();
        }
        for (int mask = subtree >> 1; mask > 0; mask >>= 1) {
            if (vr + mask < p) {
                int n = Math.min(mask, p - vr - mask);
                s.send((vr + mask + root) % p, tmp.asSlice(mask * block, n * block));
            }
        }
        s.waitAll();
        if (recv != null) {
            s.local(() -> MemorySegment.copy(tmp, 0, recv, 0, block));
        }
        return s;
    }

    /** Gatherv: block i of {@code counts[i]} bytes lands at byte offset {@code displs[i]}. */
    public static Schedule gatherv(Schedule s, MemorySegment send, MemorySegment recv,
                                   long[] counts, long[] displs, int root) {
        int p = s.size();
        int r = s.rank();
        if (r != root) {
            return s.send(root, send).waitAll();
        }
        for (int i = 0; i < p; i++) {
            if (i == r) {
                if (send != null) {
                    long d = displs[i];
                    long c = counts[i];
                    s.local(() -> MemorySegment.copy(send, 0, recv, d, c));
                }
            } else {
                s.recv(i, recv.asSlice(displs[i], counts[i]));
            }
        }
        return s.waitAll();
    }

    /** Scatterv: the root sends {@code counts[i]} bytes from byte offset {@code displs[i]}. */
    public static Schedule scatterv(Schedule s, MemorySegment send, long[] counts, long[] displs,
                                    MemorySegment recv, int root) {
        int p = s.size();
        int r = s.rank();
        if (r != root) {
            return s.recv(root, recv).waitAll();
        }
        for (int i = 0; i < p; i++) {
            if (i == r) {
                if (recv != null) {
                    long d = displs[i];
                    long c = counts[i];
                    s.local(() -> MemorySegment.copy(send, d, recv, 0, c));
                }
            } else {
                s.send(i, send.asSlice(displs[i], counts[i]));
            }
        }
        return s.waitAll();
    }
}
