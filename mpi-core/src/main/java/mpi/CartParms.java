package mpi;

/** MPI_Cart_get's results: extents, periodicity and the caller's coordinates per dimension. */
public final class CartParms {
    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    protected CartParms(int[] dims, boolean[] periods, int[] coords) {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    /** The number of dimensions. */
    public int getDimCount() {
        return dims.length;
    }

    /** The number of processes along dimension {@code i}. */
    public int getDim(int i) {
        return dims[i];
    }

    /** True if dimension {@code i} is periodic (wraps around). */
    public boolean getPeriod(int i) {
        return periods[i];
    }

    /** This process's coordinate in dimension {@code i}. */
    public int getCoord(int i) {
        return coords[i];
    }
}
