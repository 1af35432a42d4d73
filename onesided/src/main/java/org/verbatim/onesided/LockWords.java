package org.verbatim.onesided;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The two lock words of a member of a window locked by atomics ({@link AtomicLocks}), and the
 * claims on them. Each member's lock segment:
 * <pre>
 *   0              64             128                    128 + 32p
 *   +--------------+--------------+----------------------+
 *   | remote word  | host word    | per target t (32 B): atomic result, host word read,
 *   +--------------+--------------+----------------------+ release result (8 B each)
 *   both words: bit 62 held exclusively | bits 32..61 writers waiting | bits 0..31 readers
 *   remote word: the claims of members on other hosts, changed by their adapters' atomics only
 *   host word:   the claims of the member itself and of members on its host, changed by CPU
 *                atomics only (on a shared mapping of the segment); read by the others by RDMA
 * </pre>
 * No word is changed by both kinds of atomic: a CPU atomic is atomic against an adapter's only on
 * devices that report IBV_ATOMIC_GLOB (Soft-RoCE and most HCAs report IBV_ATOMIC_HCA). The two
 * groups of claimants exclude each other as in Dekker's algorithm: each publishes its claim in its
 * own word, then reads the other word and backs out on a conflict. A host claimant's atomic is
 * ordered before its load of the remote word by a full fence; a remote claimant's read of the host
 * word runs behind its atomic on the same reliable connection, which executes them at the target
 * in order. So of two conflicting claims at least one sees the other. Within each group the word's
 * counts do the rest (as {@link SharedControl}'s lock word): writers announce themselves and new
 * readers of either group wait while one is announced, so readers cannot starve a writer; a writer
 * that won its own word but finds the other group holding gives the word back and stays announced.
 * Both groups may back out at once; the caller's bounded backoff ({@link Pause}) separates the
 * retries.
 */
final class LockWords {
    static final long REMOTE = 0;
    static final long HOST = 64;
    /** Where this member's atomic results, host-word reads and releases land, per target. */
    static final long SLOTS = 128;
    private static final long SLOT_BYTES = 32;
    static final long EXCLUSIVE = 1L << 62;
    static final long WRITER = 1L << 32;
    static final long READERS = WRITER - 1;
    static final long WRITERS = EXCLUSIVE - WRITER;
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private LockWords() {
    }

    /** Bytes of a lock segment of a window of {@code members}. */
    static long bytes(int members) {
        return SLOTS + SLOT_BYTES * members;
    }

    /** Offset of the result slots of this member's operations on target {@code t}'s words. */
    static long slot(int t) {
        return SLOTS + SLOT_BYTES * t;
    }

    /** What a release adds to the word it was claimed in. */
    static long releaseDelta(boolean exclusive) {
        return exclusive ? -EXCLUSIVE : -1L;
    }

    /** Waits before the next attempt: {@code backoff} as returned last (0 the first time). */
    interface Pause {
        long pause(long backoff);
    }

    /**
     * A claimant on another host than the target: adapter atomics on the target's remote word,
     * and RDMA reads of its host word.
     */
    interface RemotePath {
        int FETCH_ADD = 0;
        int COMPARE_SWAP = 1;

        /**
         * Runs an atomic on the remote word (FETCH_ADD {@code a}, or COMPARE_SWAP expecting
         * {@code a}, swapping in {@code b}) and a read of the host word that the target executes
         * after it; returns the remote word's old value, {@link #hostRead} the host word.
         */
        long atomicThenRead(int op, long a, long b);

        /** The host word as the last {@link #atomicThenRead} or {@link #readHost} read it. */
        long hostRead();

        long fetchAndAdd(long add);

        long readHost();
    }

    // ------------------------------------------------------------------ claims from the host

    /** A shared claim of the member whose lock segment {@code s} is (mapped here). */
    static void hostShared(MemorySegment s, Pause p) {
        long backoff = 0;
        while (true) {
            long h = (long) WORD.getVolatile(s, HOST);
            if ((h & (EXCLUSIVE | WRITERS)) != 0 || (remote(s) & (EXCLUSIVE | WRITERS)) != 0) {
                backoff = p.pause(backoff);
                continue;
            }
            if (!WORD.compareAndSet(s, HOST, h, h + 1)) {
                continue; // the host word moved: look again at once
            }
            VarHandle.fullFence();
            if ((remote(s) & (EXCLUSIVE | WRITERS)) == 0) {
                return;
            }
            add(s, -1L); // a remote writer holds or waits: back out, wait while it is there
            backoff = p.pause(backoff);
        }
    }

    /** An exclusive claim of the member whose lock segment {@code s} is (mapped here). */
    static void hostExclusive(MemorySegment s, Pause p) {
        add(s, WRITER); // announced: new readers of both groups wait
        long backoff = 0;
        while (true) {
            long h = (long) WORD.getVolatile(s, HOST);
            if ((h & (EXCLUSIVE | READERS)) == 0 && (remote(s) & (EXCLUSIVE | READERS)) == 0) {
                if (!WORD.compareAndSet(s, HOST, h, h - WRITER + EXCLUSIVE)) {
                    continue;
                }
                VarHandle.fullFence();
                if ((remote(s) & (EXCLUSIVE | READERS)) == 0) {
                    return;
                }
                add(s, WRITER - EXCLUSIVE); // a remote claimant holds: give back, stay announced
            }
            backoff = p.pause(backoff);
        }
    }

    /** Releases a claim from the host; the atomic orders the epoch's loads and stores before it. */
    static void hostRelease(MemorySegment s, boolean exclusive) {
        add(s, releaseDelta(exclusive));
    }

    // ------------------------------------------------------------------ claims from other hosts

    static void remoteShared(RemotePath r, Pause p) {
        long backoff = 0;
        while (true) {
            long old = r.atomicThenRead(RemotePath.FETCH_ADD, 1L, 0);
            if ((old & (EXCLUSIVE | WRITERS)) == 0 && (r.hostRead() & (EXCLUSIVE | WRITERS)) == 0) {
                return;
            }
            r.fetchAndAdd(-1L);
            // Claim again only once no writer of either group holds or is announced: a reader that
            // claimed again after a mere backoff kept the readers' count above zero most of the
            // time when two peers read, and a writer of the host (which needs a moment with no
            // reader) starved.
            do {
                backoff = p.pause(backoff);
            } while ((r.fetchAndAdd(0L) & (EXCLUSIVE | WRITERS)) != 0
                    || (r.readHost() & (EXCLUSIVE | WRITERS)) != 0);
        }
    }

    static void remoteExclusive(RemotePath r, Pause p) {
        long v = r.fetchAndAdd(WRITER) + WRITER;
        long backoff = 0;
        while (true) {
            if ((v & (EXCLUSIVE | READERS)) == 0) {
                long old = r.atomicThenRead(RemotePath.COMPARE_SWAP, v, v - WRITER + EXCLUSIVE);
                if (old == v) {
                    if ((r.hostRead() & (EXCLUSIVE | READERS)) == 0) {
                        return;
                    }
                    // the host holds it: give the word back, stay announced
                    v = r.fetchAndAdd(WRITER - EXCLUSIVE) + WRITER - EXCLUSIVE;
                    backoff = p.pause(backoff);
                    continue;
                }
                v = old;
                if ((v & (EXCLUSIVE | READERS)) == 0) {
                    continue; // only the writers' count moved: try again at once
                }
            }
            backoff = p.pause(backoff);
            v = r.fetchAndAdd(0L);
        }
    }

    static void remoteRelease(RemotePath r, boolean exclusive) {
        r.fetchAndAdd(releaseDelta(exclusive));
    }

    // ------------------------------------------------------------------ words

    /** The remote word as the CPU sees it (only adapters change it; an aligned load is whole). */
    private static long remote(MemorySegment s) {
        return (long) WORD.getVolatile(s, REMOTE);
    }

    private static void add(MemorySegment s, long delta) {
        long unused = (long) WORD.getAndAdd(s, HOST, delta);
    }

    /** The host word (for tests and diagnostics). */
    static long host(MemorySegment s) {
        return (long) WORD.getVolatile(s, HOST);
    }

    /** The remote word as the CPU sees it (for tests and diagnostics). */
    static long remoteWord(MemorySegment s) {
        return remote(s);
    }
}
