package mpi;

import java.nio.Buffer;

/** An intra-communicator: COMM_WORLD, COMM_SELF, and those made from them. */
public class Intracomm extends Comm {
    Intracomm() {
    }

    /** A duplicate of this intra-communicator ({@link #dup}). */
    @Override
    public Intracomm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** Duplicates this intra-communicator (MPI_Comm_dup). Collective. */
    @Override
    public Intracomm dup() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_dup");
        Intracomm c = new Intracomm();
        initDup(c, "MPI_Comm_dup");
        return c;
    }

    /**
     * Nonblocking {@link #dup} (MPI_Comm_idup); the new communicator is usable once {@link
     * #getRequest} completes.
     */
    @Override
    public Intracomm iDup() throws MPIException {
        Intracomm c = dup();
        c.request = Request.completed(this, "MPI_Comm_idup");
        return c;
    }

    /** As {@link #dup}, with {@code info} attached (MPI_Comm_dup_with_info). */
    @Override
    public Intracomm dupWithInfo(Info info) throws MPIException {
        Intracomm c = dup();
        c.setInfo(info);
        return c;
    }

    /** MPI_Comm_split: colour MPI.UNDEFINED gives a communicator whose isNull() is true. */
    public final Intracomm split(int colour, int key) throws MPIException {
        return CommCreation.split(this, colour, key, "MPI_Comm_split");
    }

    /** MPI_Comm_split_type with Comm.TYPE_SHARED: the ranks of this host. */
    public final Intracomm splitType(int splitType, int key, Info info) throws MPIException {
        return CommCreation.splitType(this, splitType, key);
    }

    /** MPI_Comm_create: collective over this communicator; non-members get an isNull() comm. */
    public final Intracomm create(Group group) throws MPIException {
        return CommCreation.create(this, group);
    }

    /** MPI_Comm_create_group: collective over the group's members only. */
    public final Intracomm createGroup(Group group, int tag) throws MPIException {
        return CommCreation.createGroup(this, group, tag);
    }

    // ------------------------------------------------------------------ scans

    /**
     * Inclusive prefix reduction: rank {@code i} gets the combination of ranks 0 to {@code i}
     * (MPI_Scan). The form with one buffer works in place.
     */
    public final void scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        GroupCollectives.scan(this, sendbuf, recvbuf, count, type, op, false, false);
    }

    /**
     * Inclusive prefix reduction: rank {@code i} gets the combination of ranks 0 to {@code i}
     * (MPI_Scan). The form with one buffer works in place.
     */
    public final void scan(Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        GroupCollectives.scan(this, null, recvbuf, count, type, op, false, false);
    }

    /** Nonblocking {@link #scan} (MPI_Iscan). */
    public final Request iScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        return GroupCollectives.scan(this, sendbuf, recvbuf, count, type, op, true, false);
    }

    /** Nonblocking {@link #scan} (MPI_Iscan). */
    public final Request iScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return GroupCollectives.scan(this, null, buf, count, type, op, true, false);
    }

    /**
     * Exclusive prefix reduction: rank {@code i} gets the combination of ranks 0 to {@code i - 1};
     * rank 0's result is undefined (MPI_Exscan).
     */
    public final void exScan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        GroupCollectives.scan(this, sendbuf, recvbuf, count, type, op, false, true);
    }

    /**
     * Exclusive prefix reduction: rank {@code i} gets the combination of ranks 0 to {@code i - 1};
     * rank 0's result is undefined (MPI_Exscan).
     */
    public final void exScan(Object buf, int count, Datatype type, Op op) throws MPIException {
        GroupCollectives.scan(this, null, buf, count, type, op, false, true);
    }

    /** Nonblocking {@link #exScan} (MPI_Iexscan). */
    public final Request iExScan(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        return GroupCollectives.scan(this, sendbuf, recvbuf, count, type, op, true, true);
    }

    /** Nonblocking {@link #exScan} (MPI_Iexscan). */
    public final Request iExScan(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return GroupCollectives.scan(this, null, buf, count, type, op, true, true);
    }

    // ------------------------------------------------------------------ dynamic processes

    /**
     * Opens a port that other groups can connect to (MPI_Open_port): a listening socket of this
     * process, named {@code verbatim-port:<addresses>:<tcp port>:<token>} (the token: 128 random
     * bits that a connecting root must present). Local: not collective.
     */
    public static String openPort() throws MPIException {
        MPI.check();
        try {
            return Ports.open();
        } catch (java.io.IOException e) {
            throw MPI.COMM_WORLD.raise("MPI_Open_port", MPI.ERR_PORT, "cannot listen: "
                    + e.getMessage());
        }
    }

    /** As {@link #openPort()}; no info key is used (MPI_Open_port). */
    public static String openPort(Info info) throws MPIException {
        return openPort();
    }

    /** Closes a port this process opened (MPI_Close_port); any other name is ERR_PORT. */
    public static void closePort(String name) throws MPIException {
        MPI.check();
        if (!Ports.close(name)) {
            throw MPI.COMM_WORLD.raise("MPI_Close_port", MPI.ERR_PORT, "'" + name
                    + "' is not a port this process has open");
        }
    }

    /**
     * Waits at {@code root} for a group that connects to {@code port} (which {@code root} opened)
     * and returns the inter-communicator to it (MPI_Comm_accept). Collective over this
     * communicator; {@code port} matters at the root only.
     */
    public final Intercomm accept(String port, int root) throws MPIException {
        return ConnectAccept.run(this, root, "MPI_Comm_accept",
                mine -> Connect.accept(port, mine, "MPI_Comm_accept"));
    }

    /** As {@link #accept(String, int)}; no info key is used (MPI_Comm_accept). */
    public final Intercomm accept(String port, Info info, int root) throws MPIException {
        return accept(port, root);
    }

    /**
     * Connects to the group that accepts on {@code port} and returns the inter-communicator to
     * it (MPI_Comm_connect). Collective; {@code port} matters at the root only. A name that is no
     * open port gives ERR_PORT on every member.
     */
    public final Intercomm connect(String port, int root) throws MPIException {
        return ConnectAccept.run(this, root, "MPI_Comm_connect",
                mine -> Connect.exchange(port, mine, "MPI_Comm_connect"));
    }

    /** As {@link #connect(String, int)}; no info key is used (MPI_Comm_connect). */
    public final Intercomm connect(String port, Info info, int root) throws MPIException {
        return connect(port, root);
    }

    /**
     * Publishes {@code port} under {@code service} with the process manager's name service
     * (MPI_Publish_name): mpirun's own, or the {@code bin/verbatim-nameserver} it was pointed at.
     */
    public static void publishName(String service, String port) throws MPIException {
        MPI.check();
        NameService.publish(service, port);
    }

    /** As {@link #publishName(String, String)}; no info key is used (MPI_Publish_name). */
    public static void publishName(String service, Info info, String port) throws MPIException {
        publishName(service, port);
    }

    /** Withdraws a name this job published (MPI_Unpublish_name); an unknown one is ERR_SERVICE. */
    public static void unpublishName(String service, String port) throws MPIException {
        MPI.check();
        NameService.unpublish(service, port);
    }

    /** As {@link #unpublishName(String, String)}; no info key is used (MPI_Unpublish_name). */
    public static void unpublishName(String service, Info info, String port) throws MPIException {
        unpublishName(service, port);
    }

    /** The port published under {@code service} (MPI_Lookup_name); an unknown one is ERR_NAME. */
    public static String lookupName(String service) throws MPIException {
        MPI.check();
        return NameService.lookup(service);
    }

    /** As {@link #lookupName(String)}; no info key is used (MPI_Lookup_name). */
    public static String lookupName(String service, Info info) throws MPIException {
        return lookupName(service);
    }

    /**
     * Starts {@code maxprocs} copies of {@code command} as a new world and returns the
     * inter-communicator to them (MPI_Comm_spawn). Collective; the arguments matter at the root.
     * {@code argv} null is MPI_ARGV_NULL; {@code errcodes} null is MPI_ERRCODES_IGNORE, else it
     * gets one code per child. {@code command} {@code java} means mpirun's JDK with the parents'
     * class path. Info keys: {@code wdir}, {@code path}, {@code host} (this host only).
     */
    public final Intercomm spawn(String command, String[] argv, int maxprocs, Info info, int root,
                                 int[] errcodes) throws MPIException {
        return Spawn.spawn(this, new String[] {command}, new String[][] {argv},
                new int[] {maxprocs}, new Info[] {info}, root, errcodes, "MPI_Comm_spawn");
    }

    /**
     * Starts several commands as one new world, the children of command 0 first
     * (MPI_Comm_spawn_multiple); null {@code argv} or {@code errcodes} as in {@link #spawn}.
     */
    public final Intercomm spawnMultiple(String[] commands, String[][] argv, int[] maxprocs,
                                         Info[] info, int root, int[] errcodes)
            throws MPIException {
        return Spawn.spawn(this, commands, argv, maxprocs, info, root, errcodes,
                "MPI_Comm_spawn_multiple");
    }

    // ------------------------------------------------------------------ topologies

    /** MPI_Cart_create; ranks outside the grid get a communicator whose isNull() is true. */
    public final CartComm createCart(int[] dims, boolean[] periods, boolean reorder)
            throws MPIException {
        return Topologies.createCart(this, dims, periods, reorder);
    }

    /** MPI_Graph_create; ranks outside the graph get a communicator whose isNull() is true. */
    public final GraphComm createGraph(int[] index, int[] edges, boolean reorder)
            throws MPIException {
        return Topologies.createGraph(this, index, edges, reorder);
    }

    /** MPI_Dist_graph_create with edge weights. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations,
                                           int[] weights, Info info, boolean reorder)
            throws MPIException {
        return Topologies.createDistGraph(this, sources, degrees, destinations, weights, true);
    }

    /** MPI_Dist_graph_create, unweighted. */
    public final GraphComm createDistGraph(int[] sources, int[] degrees, int[] destinations,
                                           Info info, boolean reorder) throws MPIException {
        return Topologies.createDistGraph(this, sources, degrees, destinations, null, false);
    }

    /** MPI_Dist_graph_create_adjacent, unweighted. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] destinations, Info info,
                                                   boolean reorder) throws MPIException {
        return Topologies.createDistGraphAdjacent(this, sources, null, destinations, null,
                false);
    }

    /** MPI_Dist_graph_create_adjacent with edge weights. */
    public final GraphComm createDistGraphAdjacent(int[] sources, int[] sourceWeights,
                                                   int[] destinations, int[] destWeights,
                                                   Info info, boolean reorder)
            throws MPIException {
        return Topologies.createDistGraphAdjacent(this, sources, sourceWeights, destinations,
                destWeights, true);
    }
}
