package org.verbatim.spi;

/**
 * One profiler counter of a transport ({@code verbatim.core.profile}), combined over the ranks
 * and printed by rank 0 at finalize.
 *
 * @param name    what it counts, in words ("queue pairs")
 * @param unit    unit printed after the value ("KiB"), or empty
 * @param value   this rank's value
 * @param combine how the ranks' values combine
 */
public record ProfileCounter(String name, String unit, long value, Combine combine) {
    /** How the ranks' values combine into the job's figure. */
    public enum Combine {
        /** The total over the ranks. */
        SUM,
        /** The largest rank's value. */
        MAX,
        /** Total, average and largest rank's value. */
        SUM_AND_MAX
    }

    public static ProfileCounter sum(String name, long value) {
        return new ProfileCounter(name, "", value, Combine.SUM);
    }

    public static ProfileCounter max(String name, long value) {
        return new ProfileCounter(name, "", value, Combine.MAX);
    }

    public static ProfileCounter sumAndMax(String name, String unit, long value) {
        return new ProfileCounter(name, unit, value, Combine.SUM_AND_MAX);
    }
}
