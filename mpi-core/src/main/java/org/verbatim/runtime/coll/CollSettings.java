package org.verbatim.runtime.coll;

import java.util.List;
import java.util.Map;
import org.verbatim.config.Setting;
import org.verbatim.config.SettingsProvider;

/**
 * Thresholds that choose collective algorithms (area "coll"). Every rank must use the same
 * values: pass them through the job's configuration (mpirun -x), not per rank.
 *
 * @param bcastLarge     bcast payloads from this size use scatter + ring allgather
 * @param allreduceLarge allreduce payloads from this size use reduce-scatter + allgather
 * @param allgatherLarge allgather totals from this size use the ring
 * @param alltoallSmall  alltoall blocks up to this size use Bruck (with >= 8 ranks)
 * @param alltoallLarge  alltoall blocks from this size use pairwise exchange
 * @param gatherLarge    gather/scatter blocks from this size go linear (else binomial)
 * @param bruckMinRanks  Bruck's alltoall needs at least this many ranks
 */
public record CollSettings(long bcastLarge, long allreduceLarge, long allgatherLarge,
                           long alltoallSmall, long alltoallLarge, long gatherLarge,
                           int bruckMinRanks) {

    public static final Setting BCAST_LARGE = new Setting("verbatim.coll.bcast-large", "12k",
            "Broadcasts from this many bytes use scatter + ring allgather instead of a binomial tree.");
    public static final Setting ALLREDUCE_LARGE = new Setting("verbatim.coll.allreduce-large",
            "8k", "Allreduce from this many bytes uses reduce-scatter + allgather (Rabenseifner) "
                    + "for commutative ops on power-of-two groups, else reduce + large broadcast.");
    public static final Setting ALLGATHER_LARGE = new Setting("verbatim.coll.allgather-large",
            "512k", "Allgather totals from this many bytes use the ring instead of recursive doubling.");
    public static final Setting ALLTOALL_SMALL = new Setting("verbatim.coll.alltoall-small",
            "256", "Alltoall blocks up to this many bytes use Bruck's algorithm (with at least "
                    + "verbatim.coll.bruck-min-ranks ranks).");
    public static final Setting ALLTOALL_LARGE = new Setting("verbatim.coll.alltoall-large",
            "32k", "Alltoall blocks from this many bytes use pairwise exchange; between small and "
                    + "large, all requests are posted at once.");
    public static final Setting GATHER_LARGE = new Setting("verbatim.coll.gather-large", "4k",
            "Gather and scatter blocks from this many bytes go linear; smaller ones use a binomial tree.");

    public static final Setting BRUCK_MIN_RANKS = new Setting("verbatim.coll.bruck-min-ranks",
            "8", "Fewest ranks for which small-block alltoall uses Bruck's algorithm.");

    public static CollSettings from(Map<String, String> config) {
        return new CollSettings(BCAST_LARGE.getSize(config), ALLREDUCE_LARGE.getSize(config),
                ALLGATHER_LARGE.getSize(config), ALLTOALL_SMALL.getSize(config),
                ALLTOALL_LARGE.getSize(config), GATHER_LARGE.getSize(config),
                BRUCK_MIN_RANKS.getInt(config));
    }

    /** The settings list for --print-config and the docs. */
    public static final class Provider implements SettingsProvider {
        @Override
        public String area() {
            return "coll";
        }

        @Override
        public List<Setting> settings() {
            return List.of(BCAST_LARGE, ALLREDUCE_LARGE, ALLGATHER_LARGE, ALLTOALL_SMALL,
                    ALLTOALL_LARGE, GATHER_LARGE, BRUCK_MIN_RANKS);
        }
    }
}
