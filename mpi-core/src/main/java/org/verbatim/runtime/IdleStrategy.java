package org.verbatim.runtime;

import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * What a waiting thread does when a progress pass found nothing (Agrona's IdleStrategy). The
 * state is an int counter owned by the caller, so one strategy serves many threads.
 */
public enum IdleStrategy {
    /**
     * Spin for some tens of microseconds, then yield on every idle pass: a reply that comes
     * within that time (ping-pong on a quiet machine) never pays a system call, and a rank
     * whose peer has lost its core to another process hands its own core over instead of
     * burning its time slice (a pure spin measured millisecond stalls per message when a
     * busy process shared the cores).
     */
    SPIN_THEN_YIELD {
        @Override
        int idle(int count, Waiter waiter) {
            if (count < 4096) {
                pauseNowAndThen(count);
            } else {
                Thread.yield();
            }
            return count + 1;
        }
    },
    /** Busy spin: lowest latency when every rank has its own core. */
    SPIN {
        @Override
        int idle(int count, Waiter waiter) {
            pauseNowAndThen(count);
            return count + 1;
        }
    },
    /**
     * Give the processor away on every idle pass (sched_yield), never sleeping: what Open MPI
     * does when idle (mpi_yield_when_idle). A message that arrives while the peer is scheduled
     * costs no wake-up, and a rank that waits lets the other processes of a busy or
     * oversubscribed machine run. No spinning first: with more ranks than cores the message
     * waited for usually comes from a rank that needs this very core (4 ranks on 2 cores: a
     * barrier took 20-24 us after 64 spins per wait, 8 us yielding at once; Open MPI C 4-6 us).
     */
    YIELD {
        @Override
        int idle(int count, Waiter waiter) {
            Thread.yield();
            return count + 1;
        }
    },
    /** Spin, then yield, then park for growing intervals up to 200 microseconds. */
    BACKOFF {
        @Override
        int idle(int count, Waiter waiter) {
            if (count < 200) {
                pauseNowAndThen(count);
            } else if (count < 300) {
                Thread.yield();
            } else {
                int shift = Math.min(count - 300, 8);
                LockSupport.parkNanos(1_000L << shift); // 1 us .. 256 us
            }
            return count + 1;
        }
    },
    /**
     * Yield a few times, then sleep for up to a millisecond at a time on every open transport's
     * wait source at once ({@link Waiter}): over shm alone on the inbox's doorbell, woken by the
     * next commit of a peer; with several transports on all their descriptors through ppoll.
     * When a source cannot be combined (or at MPI_THREAD_MULTIPLE) it parks for up to 50
     * microseconds instead.
     */
    BLOCK {
        @Override
        int idle(int count, Waiter waiter) {
            if (count < 10) {
                Thread.yield();
            } else {
                waiter.sleep(1_000_000L);
            }
            return count + 1;
        }
    };

    /**
     * The spin between progress passes: a spin-wait hint (x86 PAUSE) on one idle pass in
     * {@link #PAUSE_EVERY}, none on the others. A progress pass that finds nothing is already the
     * spin, as in Open MPI's and MVAPICH's polling loops, which pause not at all; the hint now
     * and then still lets an SMT sibling in. A PAUSE on every pass costs ~40 ns of reaction time
     * per pass on recent x86 cores and, under QEMU's TCG (the RDMA test guests), an exit from the
     * translated code each time: there, with the hint on every pass, an 8 B ib ping-pong
     * measured typical 17.9-22.7 us (avg 24-31) against 12.5-15.1 us (avg 16.8-21.5) without it.
     */
    private static void pauseNowAndThen(int count) {
        if ((count & (PAUSE_EVERY - 1)) == PAUSE_EVERY - 1) {
            Thread.onSpinWait();
        }
    }

    /** Idle passes per spin-wait hint (a power of two). */
    static final int PAUSE_EVERY = 16;

    /** One idle step; returns the new counter (reset it to 0 after useful work). */
    abstract int idle(int count, Waiter waiter);

    /**
     * "spin", "spin-yield", "yield", "backoff", "block", or "auto": spin-yield while every rank
     * has a core of its own (yielding at once cost 5 us per message instead of 0.2), yield up
     * to four ranks per core (a waiting rank gives its core to a peer that has work), backoff
     * up to eight, block beyond.
     */
    static IdleStrategy choose(String configured, int ranksOnHost, int cores) {
        String v = configured.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "spin" -> SPIN;
            case "spin-yield" -> SPIN_THEN_YIELD;
            case "yield" -> YIELD;
            case "backoff" -> BACKOFF;
            case "block" -> BLOCK;
            case "auto" -> ranksOnHost <= cores ? SPIN_THEN_YIELD : ranksOnHost <= 4 * cores ? YIELD
                    : (ranksOnHost <= 8 * cores ? BACKOFF : BLOCK);
            default -> throw new IllegalArgumentException(
                    "verbatim.core.idle: expected auto, spin, spin-yield, yield, backoff or block, got "
                            + configured);
        };
    }
}
