package org.verbatim.onesided;

/**
 * How many times a wait on shared-memory words (a mapped fence, a PSCW epoch's posts and
 * completions) spins before it waits making progress through the runtime, which backs off by
 * the runtime's idle strategy. Spinning pays when every member has a core of its own: the word
 * it waits for changes within microseconds. When the members outnumber the cores, the rank it
 * waits for may need this very core, and each spin phase costs that rank up to a scheduler
 * slice: then the wait spins only briefly.
 */
final class SpinBudget {
    static final int DEDICATED = 20_000;
    static final int SHARED_CORES = 64;
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private SpinBudget() {
    }

    /** The spins for a wait among {@code members} processes of this host. */
    static int forMembers(int members) {
        return forMembers(members, CORES);
    }

    static int forMembers(int members, int cores) {
        return members <= cores ? DEDICATED : SHARED_CORES;
    }
}
