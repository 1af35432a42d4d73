package mpi;

import java.util.Arrays;
import org.verbatim.runtime.base.ErrorClass;

/**
 * An ordered set of processes. A process is identified by its rank in {@code MPI.COMM_WORLD}, so
 * a group is the array of its members' world ranks, in group-rank order. Groups are local
 * objects: no call here communicates.
 *
 * <p>The set algebra lives in package-private static methods over world-rank arrays that throw
 * plain {@link MPIException}s; the public methods add the MPI checks and report errors through
 * COMM_WORLD's error handler, as Open MPI does for calls without a communicator.
 */
public final class Group implements Freeable {
    private final int[] world;
    private final boolean predefined;
    private boolean freed;

    /** A group of the given world ranks (kept, not copied). */
    Group(int[] worldRanks) {
        this(worldRanks, false);
    }

    private Group(int[] worldRanks, boolean predefined) {
        this.world = worldRanks;
        this.predefined = predefined;
    }

    /** MPI.GROUP_EMPTY: cannot be freed. */
    static Group empty() {
        return new Group(new int[0], true);
    }

    /** The members' world ranks in group order (the array itself: do not modify). */
    int[] worldRanks() {
        return world;
    }

    /** The number of members (MPI_Group_size). */
    public int getSize() throws MPIException {
        check("MPI_Group_size");
        return world.length;
    }

    /** The caller's rank in this group, or {@link MPI#UNDEFINED}. */
    public int getRank() throws MPIException {
        check("MPI_Group_rank");
        return indexOf(world, MPI.process().rank());
    }

    /** Frees this group (MPI_Group_free). */
    public void free() throws MPIException {
        check("MPI_Group_free");
        if (predefined) {
            throw error("MPI_Group_free", ErrorClass.ERR_GROUP, "cannot free MPI.GROUP_EMPTY");
        }
        freed = true;
    }

    /** True if this group was freed (the Java bindings have no GROUP_NULL object). */
    public boolean isNull() {
        return freed;
    }

    /**
     * The ranks in {@code group2} of the processes at {@code ranks1} in {@code group1}, {@link
     * MPI#UNDEFINED} for those not in it (MPI_Group_translate_ranks).
     */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2)
            throws MPIException {
        String call = "MPI_Group_translate_ranks";
        checkBoth(call, group1, group2);
        if (ranks1 == null) {
            throw error(call, ErrorClass.ERR_ARG, "ranks array is null");
        }
        return wrap(call, () -> translate(group1.world, ranks1, group2.world));
    }

    /**
     * Compares two groups: {@link MPI#IDENT} (same members, same order), {@link MPI#SIMILAR} (same
     * members) or {@link MPI#UNEQUAL} (MPI_Group_compare).
     */
    public static int compare(Group group1, Group group2) throws MPIException {
        checkBoth("MPI_Group_compare", group1, group2);
        return compare(group1.world, group2.world);
    }

    /**
     * The members of the first group, then those of the second not in the first (MPI_Group_union).
     */
    public static Group union(Group group1, Group group2) throws MPIException {
        checkBoth("MPI_Group_union", group1, group2);
        return new Group(union(group1.world, group2.world));
    }

    /** The members in both groups, in the first's order (MPI_Group_intersection). */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        checkBoth("MPI_Group_intersection", group1, group2);
        return new Group(intersection(group1.world, group2.world));
    }

    /**
     * The members of the first group that are not in the second, in the first's order
     * (MPI_Group_difference).
     */
    public static Group difference(Group group1, Group group2) throws MPIException {
        checkBoth("MPI_Group_difference", group1, group2);
        return new Group(difference(group1.world, group2.world));
    }

    /** A group of the listed ranks of this one, in the order given (MPI_Group_incl). */
    public Group incl(int[] ranks) throws MPIException {
        check("MPI_Group_incl");
        return new Group(wrap("MPI_Group_incl", () -> incl(world, ranks)));
    }

    /** This group without the listed ranks (MPI_Group_excl). */
    public Group excl(int[] ranks) throws MPIException {
        check("MPI_Group_excl");
        return new Group(wrap("MPI_Group_excl", () -> excl(world, ranks)));
    }

    /** Each row is {first, last, stride}; the stride may be negative but not zero. */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        check("MPI_Group_range_incl");
        return new Group(wrap("MPI_Group_range_incl",
                () -> incl(world, expandRanges(world.length, ranges))));
    }

    /**
     * This group without the ranks of the given (first, last, stride) triples
     * (MPI_Group_range_excl).
     */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        check("MPI_Group_range_excl");
        return new Group(wrap("MPI_Group_range_excl",
                () -> excl(world, expandRanges(world.length, ranges))));
    }

    /** The group's members, for debugging. */
    @Override
    public String toString() {
        return freed ? "Group[freed]" : "Group" + Arrays.toString(world);
    }

    // ------------------------------------------------------------------ checks and errors

    private void check(String call) throws MPIException {
        MPI.check();
        if (freed) {
            throw error(call, ErrorClass.ERR_GROUP, "invalid group (it has been freed)");
        }
    }

    private static void checkBoth(String call, Group a, Group b) throws MPIException {
        MPI.check();
        if (a == null || b == null) {
            throw error(call, ErrorClass.ERR_GROUP, "group is null");
        }
        a.check(call);
        b.check(call);
    }

    private static MPIException error(String call, int cls, String reason) {
        return MPI.COMM_WORLD.raise(call, cls, reason);
    }

    private interface RankComputation {
        int[] compute() throws MPIException;
    }

    /** Runs pure set logic; its errors go through COMM_WORLD's handler with the call's name. */
    private static int[] wrap(String call, RankComputation body) throws MPIException {
        try {
            return body.compute();
        } catch (MPIException e) {
            throw error(call, e.getErrorClass(), e.getMessage());
        }
    }

    // ------------------------------------------------------------------ set algebra

    static int indexOf(int[] members, int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    /** Rank in {@code to} of each rank of {@code from}; PROC_NULL maps to itself. */
    static int[] translate(int[] from, int[] ranks, int[] to) throws MPIException {
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            int r = ranks[i];
            if (r == MPI.PROC_NULL) {
                out[i] = MPI.PROC_NULL;
            } else if (r < 0 || r >= from.length) {
                throw MPIException.of(ErrorClass.ERR_RANK, "rank " + r + " at index " + i
                        + " is not in the first group (size " + from.length + ")");
            } else {
                out[i] = indexOf(to, from[r]);
            }
        }
        return out;
    }

    static int compare(int[] a, int[] b) {
        if (Arrays.equals(a, b)) {
            return MPI.IDENT;
        }
        if (a.length != b.length) {
            return MPI.UNEQUAL;
        }
        int[] x = a.clone();
        int[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        return Arrays.equals(x, y) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** The members of a, then those of b not in a. */
    static int[] union(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        int n = a.length;
        for (int w : b) {
            if (indexOf(a, w) == MPI.UNDEFINED) {
                out[n++] = w;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** The members of a that are in b, in a's order. */
    static int[] intersection(int[] a, int[] b) {
        return Arrays.stream(a).filter(w -> indexOf(b, w) != MPI.UNDEFINED).toArray();
    }

    /** The members of a that are not in b, in a's order. */
    static int[] difference(int[] a, int[] b) {
        return Arrays.stream(a).filter(w -> indexOf(b, w) == MPI.UNDEFINED).toArray();
    }

    /** The members at {@code ranks}, in that order; ranks must be valid and distinct. */
    static int[] incl(int[] members, int[] ranks) throws MPIException {
        distinctValidRanks(members.length, ranks);
        int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = members[ranks[i]];
        }
        return out;
    }

    /** The members not at {@code ranks}, in group order; ranks must be valid and distinct. */
    static int[] excl(int[] members, int[] ranks) throws MPIException {
        boolean[] drop = distinctValidRanks(members.length, ranks);
        int[] out = new int[members.length - ranks.length];
        int n = 0;
        for (int i = 0; i < members.length; i++) {
            if (!drop[i]) {
                out[n++] = members[i];
            }
        }
        return out;
    }

    private static boolean[] distinctValidRanks(int size, int[] ranks) throws MPIException {
        if (ranks == null) {
            throw MPIException.of(ErrorClass.ERR_ARG, "ranks array is null");
        }
        boolean[] seen = new boolean[size];
        for (int i = 0; i < ranks.length; i++) {
            int r = ranks[i];
            if (r < 0 || r >= size) {
                throw MPIException.of(ErrorClass.ERR_RANK, "rank " + r + " at index " + i
                        + " is not in the group (size " + size + ")");
            }
            if (seen[r]) {
                throw MPIException.of(ErrorClass.ERR_RANK, "rank " + r + " appears twice");
            }
            seen[r] = true;
        }
        return seen;
    }

    /**
     * The ranks named by {first, last, stride} triplets, in order: first, first + stride, ...
     * while not past last. Every rank must be valid and appear once over all triplets; a stride
     * must be non-zero and point from first towards last (Open MPI's checks, class ERR_RANK).
     */
    static int[] expandRanges(int size, int[][] ranges) throws MPIException {
        if (ranges == null) {
            throw MPIException.of(ErrorClass.ERR_ARG, "ranges array is null");
        }
        int total = 0;
        for (int i = 0; i < ranges.length; i++) {
            int[] t = ranges[i];
            if (t == null || t.length < 3) {
                throw MPIException.of(ErrorClass.ERR_ARG, "range " + i
                        + " is not a {first, last, stride} triplet");
            }
            int first = t[0];
            int last = t[1];
            int stride = t[2];
            if (first < 0 || first >= size || last < 0 || last >= size) {
                throw MPIException.of(ErrorClass.ERR_RANK, "range " + i + " {" + first + ", "
                        + last + ", " + stride + "} names a rank outside the group (size "
                        + size + ")");
            }
            if (stride == 0) {
                throw MPIException.of(ErrorClass.ERR_RANK, "range " + i + " has stride 0");
            }
            if ((first < last && stride < 0) || (first > last && stride > 0)) {
                throw MPIException.of(ErrorClass.ERR_RANK, "range " + i + " {" + first + ", "
                        + last + ", " + stride + "}: the stride points away from last");
            }
            total += (last - first) / stride + 1;
        }
        int[] out = new int[total];
        int n = 0;
        for (int[] t : ranges) {
            int count = (t[1] - t[0]) / t[2] + 1;
            for (int k = 0; k < count; k++) {
                out[n++] = t[0] + k * t[2];
            }
        }
        return out;
    }
}
