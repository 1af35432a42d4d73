package org.verbatim.runtime;

import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * What a waiting thread does when a progress pass found nothing (Agrona's IdleStrategy). The
 * state is an int counter owned by the caller, so one strategy serves many threads.
 */
public enum IdleStrategy {
    /** Busy spin: lowest latency when every rank has its own core. */
    SPIN {
        @Override
        int idle(int count, Engine engine) {
            Thread.onSpinWait();
            return count + 1;
        }
    },
    /** Spin, then yield, then park for growing intervals up to 200 microseconds. */
    BACKOFF {
        @Override
        int idle(int count, Engine engine) {
            if (count < 200) {
                Thread.onSpinWait();
            } else if (count < 300) {
                Thread.yield();
            } else {
                int shift = Math.min(count - 300, 8);
                LockSupport.parkNanos(1_000L << shift); // 1 us .. 256 us
            }
            return count + 1;
        }
    },
    /** Yield at once, then sleep in the transport (or park) for up to a millisecond. */
    BLOCK {
        @Override
        int idle(int count, Engine engine) {
            if (count < 10) {
                Thread.yield();
            } else {
                engine.transportIdle(1_000_000L);
            }
            return count + 1;
        }
    };

    /** One idle step; returns the new counter (reset it to 0 after useful work). */
    abstract int idle(int count, Engine engine);

    /** "spin", "backoff", "block", or "auto" (decided from ranks per host and cores). */
    static IdleStrategy choose(String configured, int ranksOnHost, int cores) {
        String v = configured.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "spin" -> SPIN;
            case "backoff" -> BACKOFF;
            case "block" -> BLOCK;
            case "auto" -> ranksOnHost <= cores ? SPIN : (ranksOnHost <= 2 * cores ? BACKOFF : BLOCK);
            default -> throw new IllegalArgumentException(
                    "verbatim.core.idle: expected auto, spin, backoff or block, got " + configured);
        };
    }
}
