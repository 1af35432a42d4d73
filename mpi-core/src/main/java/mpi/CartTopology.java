package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.verbatim.runtime.base.ErrorClass;

/**
 * A Cartesian grid: extents and periodicity per dimension, with ranks laid out in row-major
 * order (the last dimension varies fastest), as MPI defines. Pure arithmetic: every rank of the
 * communicator can compute every other rank's coordinates, so sub-grids and shifts need no
 * communication. Errors are plain {@link MPIException}s that the communicator reports.
 */
final class CartTopology {
    final int[] dims;
    final boolean[] periods;
    /** Number of grid points (1 for a zero-dimensional grid). */
    final int size;

    private CartTopology(int[] dims, boolean[] periods) {
        this.dims = dims;
        this.periods = periods;
        int n = 1;
        for (int d : dims) {
            n *= d;
        }
        this.size = n;
    }

    /** Checks MPI_Cart_create's arguments against a communicator of {@code commSize} ranks. */
    static CartTopology of(int[] dims, boolean[] periods, int commSize) throws MPIException {
        if (dims == null || periods == null) {
            throw MPIException.of(ErrorClass.ERR_ARG, (dims == null ? "dims" : "periods")
                    + " is null");
        }
        if (dims.length != periods.length) {
            throw MPIException.of(ErrorClass.ERR_ARG, "dims has " + dims.length
                    + " entries but periods has " + periods.length);
        }
        long product = 1;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] <= 0) {
                throw MPIException.of(ErrorClass.ERR_DIMS, "dims[" + i + "] = " + dims[i]
                        + " (each extent must be positive)");
            }
            product *= dims[i];
            if (product > commSize) {
                throw MPIException.of(ErrorClass.ERR_DIMS, "grid " + Arrays.toString(dims)
                        + " needs more than the communicator's " + commSize + " ranks");
            }
        }
        return new CartTopology(dims.clone(), periods.clone());
    }

    int ndims() {
        return dims.length;
    }

    /** MPI_Cart_rank: periodic dimensions wrap; others must be in range (ERR_ARG). */
    int rankOf(int[] coords) throws MPIException {
        if (coords == null || coords.length < dims.length) {
            throw MPIException.of(ErrorClass.ERR_ARG, "coords must have " + dims.length
                    + " entries");
        }
        int r = 0;
        for (int i = 0; i < dims.length; i++) {
            int c = coords[i];
            if (periods[i]) {
                c = Math.floorMod(c, dims[i]);
            } else if (c < 0 || c >= dims[i]) {
                throw MPIException.of(ErrorClass.ERR_ARG, "coordinate " + c + " in dimension "
                        + i + " is outside 0.." + (dims[i] - 1) + " (not periodic)");
            }
            r = r * dims[i] + c;
        }
        return r;
    }

    /** MPI_Cart_coords. */
    int[] coordsOf(int rank) throws MPIException {
        if (rank < 0 || rank >= size) {
            throw MPIException.of(ErrorClass.ERR_RANK, "rank " + rank + " is not in the grid of "
                    + size + " ranks");
        }
        int[] c = new int[dims.length];
        for (int i = dims.length - 1; i >= 0; i--) {
            c[i] = rank % dims[i];
            rank /= dims[i];
        }
        return c;
    }

    /**
     * MPI_Cart_shift from {@code rank}: {source, dest}, where dest is {@code disp} steps up
     * dimension {@code direction} and source as many down; PROC_NULL past a non-periodic edge.
     */
    int[] shift(int rank, int direction, int disp) throws MPIException {
        if (direction < 0 || direction >= dims.length) {
            throw MPIException.of(ErrorClass.ERR_DIMS, "direction " + direction
                    + " (the grid has " + dims.length + " dimensions)");
        }
        int[] c = coordsOf(rank);
        return new int[] {step(c, direction, -disp), step(c, direction, disp)};
    }

    private int step(int[] coords, int direction, int disp) {
        int[] c = coords.clone();
        long moved = (long) c[direction] + disp;
        if (periods[direction]) {
            c[direction] = (int) Math.floorMod(moved, (long) dims[direction]);
        } else if (moved < 0 || moved >= dims[direction]) {
            return MPI.PROC_NULL;
        } else {
            c[direction] = (int) moved;
        }
        int r = 0;
        for (int i = 0; i < dims.length; i++) {
            r = r * dims[i] + c[i];
        }
        return r;
    }

    /**
     * The neighbours of neighbourhood collectives, in MPI order: per dimension, the -1 then the
     * +1 neighbour (PROC_NULL past non-periodic edges). Sources and destinations are the same.
     */
    int[] neighbors(int rank) {
        int[] c;
        try {
            c = coordsOf(rank);
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
        int[] n = new int[2 * dims.length];
        for (int d = 0; d < dims.length; d++) {
            n[2 * d] = step(c, d, -1);
            n[2 * d + 1] = step(c, d, 1);
        }
        return n;
    }

    /** The sub-grid of the kept dimensions (MPI_Cart_sub). */
    CartTopology sub(boolean[] remain) throws MPIException {
        checkRemain(remain);
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < dims.length; i++) {
            if (remain[i]) {
                kept.add(i);
            }
        }
        int[] d = new int[kept.size()];
        boolean[] p = new boolean[kept.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = dims[kept.get(i)];
            p[i] = periods[kept.get(i)];
        }
        return new CartTopology(d, p);
    }

    /**
     * The grid ranks in {@code rank}'s sub-grid (those that agree with it in every dropped
     * dimension), in grid-rank order, which is also their row-major order in the sub-grid.
     */
    int[] subMembers(int rank, boolean[] remain) throws MPIException {
        checkRemain(remain);
        int[] mine = coordsOf(rank);
        int[] out = new int[size];
        int n = 0;
        for (int r = 0; r < size; r++) {
            int[] c = coordsOf(r);
            boolean same = true;
            for (int i = 0; i < dims.length && same; i++) {
                same = remain[i] || c[i] == mine[i];
            }
            if (same) {
                out[n++] = r;
            }
        }
        return Arrays.copyOf(out, n);
    }

    private void checkRemain(boolean[] remain) throws MPIException {
        if (remain == null || remain.length != dims.length) {
            throw MPIException.of(ErrorClass.ERR_ARG, "remainDims must have " + dims.length
                    + " entries");
        }
    }

    /**
     * MPI_Dims_create: fills the zero entries of {@code dims} so that the product of all entries
     * is {@code nnodes}, with the filled extents as close to each other as possible and in
     * non-increasing order. Non-zero entries are kept and must divide {@code nnodes}.
     */
    static void createDims(int nnodes, int[] dims) throws MPIException {
        if (dims == null) {
            throw MPIException.of(ErrorClass.ERR_ARG, "dims is null");
        }
        if (nnodes < 1) {
            throw MPIException.of(ErrorClass.ERR_DIMS, "nnodes " + nnodes + " must be positive");
        }
        int free = nnodes;
        int freeDims = 0;
        for (int i = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                freeDims++;
            } else if (dims[i] < 0 || free % dims[i] != 0) {
                throw MPIException.of(ErrorClass.ERR_DIMS, "dims[" + i + "] = " + dims[i]
                        + " does not divide the " + nnodes + " nodes with the other fixed "
                        + "extents");
            } else {
                free /= dims[i];
            }
        }
        if (freeDims == 0) {
            if (free != 1) {
                throw MPIException.of(ErrorClass.ERR_DIMS, "the extents " + Arrays.toString(dims)
                        + " do not multiply to " + nnodes);
            }
            return;
        }
        int[] best = balanced(free, freeDims);
        for (int i = 0, k = 0; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = best[k++];
            }
        }
    }

    /**
     * The factorisation of {@code n} into {@code k} non-increasing factors with the smallest
     * spread (largest minus smallest); among equal spreads, the one with the largest leading
     * factor. Exhaustive over non-increasing divisor chains, which stay few for any process
     * count.
     */
    static int[] balanced(int n, int k) {
        int[] current = new int[k];
        int[][] best = {null};
        search(n, k, 0, n, current, best);
        return best[0];
    }

    private static void search(int n, int k, int at, int maxFactor, int[] current, int[][] best) {
        if (at == k - 1) {
            if (n > maxFactor) {
                return;
            }
            current[at] = n;
            if (best[0] == null || spread(current) < spread(best[0])) {
                best[0] = current.clone();
            }
            return;
        }
        int remaining = k - at;
        // the largest of the remaining factors is at least the remaining-th root of n
        int lowest = (int) Math.ceil(Math.pow(n, 1.0 / remaining) - 1e-9);
        for (int f = Math.min(n, maxFactor); f >= Math.max(1, lowest); f--) {
            if (n % f != 0) {
                continue;
            }
            current[at] = f;
            search(n / f, k, at + 1, f, current, best);
        }
    }

    private static int spread(int[] factors) {
        return factors[0] - factors[factors.length - 1];
    }
}
