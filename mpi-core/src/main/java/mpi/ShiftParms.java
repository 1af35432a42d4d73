package mpi;

/** MPI_Cart_shift's results: the rank to receive from and the rank to send to. */
public final class ShiftParms {
    private final int rankSource;
    private final int rankDest;

    protected ShiftParms(int rankSource, int rankDest) {
        this.rankSource = rankSource;
        this.rankDest = rankDest;
    }

    /** The rank to receive from in the shift ({@link MPI#PROC_NULL} past a non-periodic edge). */
    public int getRankSource() {
        return rankSource;
    }

    /** The rank to send to in the shift ({@link MPI#PROC_NULL} past a non-periodic edge). */
    public int getRankDest() {
        return rankDest;
    }
}
