package org.verbatim.onesided;

import java.util.List;
import org.verbatim.spi.ProfileCounter;

/** The profiler's one-sided counters of one process ({@code verbatim.core.profile}). */
final class RmaCounters {
    long operations;
    long bytes;
    /** Operations carried as records of the two-sided path. */
    long recordOps;
    /** Records that shared a message with another record (aggregated). */
    long aggregated;
    /** Operations done as loads and stores on mapped window memory. */
    long direct;
    /** Operations done as RDMA writes and reads. */
    long rdma;
    long epochs;
    long waitNanos;
    /** Target datatype layouts sent to targets (once per target and type, while cached). */
    long layoutsSent;

    void operation(long n) {
        operations++;
        bytes += n;
    }

    List<ProfileCounter> counters() {
        return List.of(ProfileCounter.sum("RMA operations", operations),
                new ProfileCounter("RMA bytes", "B", bytes, ProfileCounter.Combine.SUM_AND_MAX),
                ProfileCounter.sum("RMA operations as messages", recordOps),
                ProfileCounter.sum("RMA operations aggregated", aggregated),
                ProfileCounter.sum("RMA operations direct (load/store)", direct),
                ProfileCounter.sum("RMA operations as RDMA", rdma),
                ProfileCounter.sum("RMA epochs", epochs),
                ProfileCounter.sum("RMA target layouts sent", layoutsSent),
                new ProfileCounter("RMA epoch wait", "us", waitNanos / 1000,
                        ProfileCounter.Combine.SUM_AND_MAX));
    }
}
