package mpi;

/**
 * A communicator with a Cartesian grid topology, made by {@link Intracomm#createCart}. Rank
 * {@code r} sits at the row-major coordinates of {@code r}; Verbatim never reorders ranks.
 */
public final class CartComm extends Intracomm {
    final CartTopology topo;

    CartComm(CartTopology topo) {
        this.topo = topo;
    }

    /** A duplicate of this Cartesian communicator ({@link #dup}). */
    @Override
    public CartComm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** Duplicates this communicator with its Cartesian topology (MPI_Comm_dup). */
    @Override
    public CartComm dup() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_dup");
        CartComm c = new CartComm(topo);
        initDup(c, "MPI_Comm_dup");
        return c;
    }

    /** MPI_Comm_idup: the new communicator is ready at return; its getRequest() is complete. */
    @Override
    public CartComm iDup() throws MPIException {
        CartComm c = dup();
        c.request = Request.completed(this, "MPI_Comm_idup");
        return c;
    }

    /** As {@link #dup}, with {@code info} attached (MPI_Comm_dup_with_info). */
    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        CartComm c = dup();
        c.setInfo(info);
        return c;
    }

    /** MPI_Cart_get: extents, periodicity and this rank's coordinates. */
    public CartParms getTopo() throws MPIException {
        MPI.check();
        checkUsable("MPI_Cart_get");
        return new CartParms(topo.dims.clone(), topo.periods.clone(),
                coords("MPI_Cart_get", rank));
    }

    /** MPI_Cart_rank: periodic dimensions wrap, others must be in range. */
    public int getRank(int[] coords) throws MPIException {
        MPI.check();
        checkUsable("MPI_Cart_rank");
        try {
            return topo.rankOf(coords);
        } catch (MPIException e) {
            throw raise("MPI_Cart_rank", e.getErrorClass(), e.getMessage());
        }
    }

    /** MPI_Cart_coords. */
    public int[] getCoords(int rank) throws MPIException {
        MPI.check();
        checkUsable("MPI_Cart_coords");
        return coords("MPI_Cart_coords", rank);
    }

    /** MPI_Cart_shift: MPI.PROC_NULL beyond non-periodic edges. */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        MPI.check();
        checkUsable("MPI_Cart_shift");
        try {
            int[] sd = topo.shift(rank, direction, disp);
            return new ShiftParms(sd[0], sd[1]);
        } catch (MPIException e) {
            throw raise("MPI_Cart_shift", e.getErrorClass(), e.getMessage());
        }
    }

    /** MPI_Cart_sub: the sub-grid of the kept dimensions that contains this rank (collective). */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        MPI.check();
        checkUsable("MPI_Cart_sub");
        CartTopology subTopo;
        int[] members;
        try {
            subTopo = topo.sub(remainDims);
            members = topo.subMembers(rank, remainDims);
        } catch (MPIException e) {
            throw raise("MPI_Cart_sub", e.getErrorClass(), e.getMessage());
        }
        int ctx = agreeContext("MPI_Cart_sub");
        return Topologies.bindMembers(this, new CartComm(subTopo), ctx, members);
    }

    /** MPI_Cart_map: this rank's rank in such a grid (no reordering), or MPI.UNDEFINED. */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        MPI.check();
        checkUsable("MPI_Cart_map");
        try {
            CartTopology t = CartTopology.of(dims, periods, world.length);
            return rank < t.size ? rank : MPI.UNDEFINED;
        } catch (MPIException e) {
            throw raise("MPI_Cart_map", e.getErrorClass(), e.getMessage());
        }
    }

    /** MPI_Dims_create: fills the zero entries of {@code dims} in place. */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        MPI.check();
        try {
            CartTopology.createDims(nnodes, dims);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.raise("MPI_Dims_create", e.getErrorClass(), e.getMessage());
        }
    }

    private int[] coords(String call, int r) throws MPIException {
        try {
            return topo.coordsOf(r);
        } catch (MPIException e) {
            throw raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    @Override
    int topologyKind() {
        return MPI.CART;
    }

    @Override
    int[] neighborSources() {
        return topo.neighbors(rank);
    }

    @Override
    int[] neighborDestinations() {
        return topo.neighbors(rank);
    }
}
