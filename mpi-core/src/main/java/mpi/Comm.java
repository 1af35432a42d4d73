package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import org.verbatim.runtime.Agreement;
import org.verbatim.runtime.Engine;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.MpiProcess;
import org.verbatim.runtime.p2p.Layout;
import org.verbatim.runtime.p2p.RecvOp;
import org.verbatim.runtime.p2p.TypeLayout;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.p2p.SendOp;
import org.verbatim.runtime.p2p.Unexpected;
import org.verbatim.runtime.coll.BlockingCollectives;
import org.verbatim.runtime.coll.CollGroup;

/**
 * A communicator: a group of processes and a context in which their messages match. Point-to-
 * point traffic uses {@code context}; the communicator's collectives use {@code context + 1}, so
 * the two never match each other, nor traffic of any other communicator.
 */
public class Comm implements Freeable, Cloneable {
    public static final int TYPE_SHARED = 0;

    MpiProcess process;
    int context;
    /** World rank of each communicator rank (the local group). */
    int[] world;
    /**
     * World rank of each rank that point-to-point calls address: the local group for an
     * intra-communicator, the remote group for an inter-communicator.
     */
    int[] remote;
    /** Sequence number of the next collective on this communicator: its messages' tag. */
    int collectiveSeq;
    int rank;
    Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    String name = "";
    boolean freed;
    /** Cached attributes: user keyvals' values, copied on dup, deleted on free. */
    Attributes attributes = new Attributes();

    Comm() {
    }

    /** Binds this object to a process: used by Init for the predefined communicators. */
    void bind(MpiProcess process, int context, int[] world, int rank, String name) {
        this.process = process;
        this.context = context;
        this.world = world;
        this.remote = world;
        this.rank = rank;
        this.name = name;
        this.freed = false;
    }

    /** The tag of the next collective: all ranks call collectives in the same order. */
    final int nextCollectiveTag() {
        int t = collectiveSeq;
        collectiveSeq = (collectiveSeq + 1) & 0x3fff_ffff;
        return t;
    }

    final Engine engine() {
        return process.engine();
    }

    final int collectiveContext() {
        return context + 1;
    }

    /** The blocking small-collective path of this communicator, made on first use. */
    private BlockingCollectives blocking;

    /** This communicator's {@link BlockingCollectives} (remade if the communicator was rebound). */
    final BlockingCollectives blockingCollectives() {
        BlockingCollectives b = blocking;
        CollGroup g = b == null ? null : b.group();
        if (g == null || g.engine() != engine() || g.context() != collectiveContext()
                || g.rank() != rank || g.peers() != world) {
            b = new BlockingCollectives(new CollGroup(engine(), collectiveContext(), rank, world,
                    process.collSettings()));
            blocking = b;
        }
        return b;
    }

    // ------------------------------------------------------------------ errors

    /**
     * Reports an error through this communicator's handler: under ERRORS_ARE_FATAL the job ends
     * here (the rank prints rank, call and reason); otherwise the exception is returned to throw.
     */
    final MPIException raise(String call, MpiError e) {
        return raise(call, e.errorClass(), e.getMessage());
    }

    final MPIException raise(String call, int errorClass, String reason) {
        if (errhandler.fatal) {
            MPI.fatal(call, errorClass, reason);
        }
        return MPIException.of(errorClass, call + ": " + reason);
    }

    final void checkUsable(String call) throws MPIException {
        if (freed || process == null) {
            throw raiseOnWorld(call, ErrorClass.ERR_COMM, "invalid communicator"
                    + (freed ? " (it has been freed)" : ""));
        }
    }

    private static MPIException raiseOnWorld(String call, int cls, String reason) {
        return MPI.COMM_WORLD.raise(call, cls, reason);
    }

    /** Segments of recently used buffers (not for boolean[], which is converted each time). */
    final SegmentCache segments = new SegmentCache();

    private static void requireDirect(Buffer buf) {
        // The reference throws IllegalArgumentException here for heap buffers; Verbatim also
        // accepts them (kept reachable and copied as needed), and a null buffer is valid with
        // count 0 (the count check refuses it otherwise, ERR_BUFFER), so nothing is refused here.
    }

    // ------------------------------------------------------------------ basics

    /**
     * A duplicate of this communicator ({@link #dup}), as {@link Object#clone} is expected to give.
     */
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /**
     * A new communicator with the same group and its own context, so its messages never match this
     * one's (MPI_Comm_dup). Collective.
     */
    public Comm dup() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_dup");
        Comm c = new Comm();
        initDup(c, "MPI_Comm_dup");
        return c;
    }

    /** Gives {@code c} this communicator's group, a fresh agreed context, and the handler. */
    final void initDup(Comm c, String call) throws MPIException {
        int agreed = agreeContext(call);
        c.bind(process, agreed, world, rank, "");
        c.errhandler = errhandler;
        c.attributes = attributes.copyForDup(this == MPI.COMM_WORLD);
    }

    /** Agrees on a new context id over this communicator (collective). */
    final int agreeContext(String call) throws MPIException {
        try {
            int agreed = (int) Agreement.allreduceMax(engine(), collectiveContext(), world, rank,
                    process.proposeContext());
            process.contextTaken(agreed);
            return agreed;
        } catch (MpiError e) {
            throw raise(call, e);
        }
    }

    /** The number of processes in the communicator (MPI_Comm_size). */
    public final int getSize() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_size");
        return world.length;
    }

    /** This process's rank in the communicator, from 0 to size - 1 (MPI_Comm_rank). */
    public final int getRank() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_rank");
        return rank;
    }

    /**
     * Compares two communicators: {@link MPI#IDENT}, {@link MPI#CONGRUENT}, {@link MPI#SIMILAR} or
     * {@link MPI#UNEQUAL} (MPI_Comm_compare).
     */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        MPI.check();
        comm1.checkUsable("MPI_Comm_compare");
        comm2.checkUsable("MPI_Comm_compare");
        if (comm1 == comm2 || comm1.context == comm2.context) {
            return MPI.IDENT;
        }
        if (java.util.Arrays.equals(comm1.world, comm2.world)) {
            return MPI.CONGRUENT;
        }
        int[] a = comm1.world.clone();
        int[] b = comm2.world.clone();
        java.util.Arrays.sort(a);
        java.util.Arrays.sort(b);
        return java.util.Arrays.equals(a, b) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** Frees this communicator; pending operations on it complete normally (MPI_Comm_free). */
    public void free() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_free");
        if (this == MPI.COMM_WORLD || this == MPI.COMM_SELF) {
            throw raise("MPI_Comm_free", ErrorClass.ERR_COMM,
                    "cannot free a predefined communicator");
        }
        attributes.clear();
        freed = true;
    }

    /** True if this communicator was freed, or MPI is not running (before Init, after Finalize). */
    public final boolean isNull() {
        return freed || process == null;
    }

    // ------------------------------------------------------------------ more communicator calls

    /** The Request of the iDup that created this communicator, else null. */
    Request request;
    private Info info;

    /** MPI_Comm_idup: the new communicator is ready at return; its getRequest() is complete. */
    public Comm iDup() throws MPIException {
        Comm c = dup();
        c.request = Request.completed(this, "MPI_Comm_idup");
        return c;
    }

    /**
     * As {@link #dup}, with {@code info} attached to the new communicator (MPI_Comm_dup_with_info).
     */
    public Comm dupWithInfo(Info info) throws MPIException {
        Comm c = dup();
        c.info = info;
        return c;
    }

    /** The request of the last nonblocking communicator duplication ({@code iDup}), or null. */
    public final Request getRequest() {
        return request;
    }

    /** Attaches info hints to this communicator (MPI_Comm_set_info). */
    public final void setInfo(Info info) throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_set_info");
        this.info = info;
    }

    /** The info hints attached to this communicator (MPI_Comm_get_info). */
    public final Info getInfo() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_get_info");
        return info == null ? new Info() : info.dup();
    }

    /**
     * MPI_Comm_disconnect: waits until what this process still has to send to the communicator's
     * peers has left (the engine's queue of sends the transports refused for now), then until
     * every member has called it (a barrier, which also follows every message sent earlier on
     * each link), then for this process's own point-to-point operations on it to complete
     * internally (MPI: every communication must be complete or matched; the program's requests
     * stay valid and report their status). A receive that no message matches within {@value
     * #DISCONNECT_MATCH_MILLIS} ms of the barrier makes it fail with ERR_PENDING naming it, rather
     * than wait forever; the communicator is freed either way. Afterwards isNull() is true.
     * Collective.
     */
    public final void disconnect() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_disconnect");
        if (this == MPI.COMM_WORLD || this == MPI.COMM_SELF) {
            throw raise("MPI_Comm_disconnect", ErrorClass.ERR_COMM,
                    "cannot disconnect a predefined communicator");
        }
        int[] peers = remote;
        engine().awaitCondition(() -> {
            for (int p : peers) {
                if (engine().pendingFor(p) > 0) {
                    return false;
                }
            }
            return true;
        });
        barrier();
        // Messages sent to us before the peers' disconnect may still be on their way (the barrier
        // does not pass every link): give matching a bounded time, then let transfers finish.
        org.verbatim.runtime.p2p.PointToPoint p2p = engine().p2p();
        long deadline = System.nanoTime() + DISCONNECT_MATCH_MILLIS * 1_000_000L;
        engine().awaitCondition(() -> p2p.openOn(context, true).isEmpty() || System.nanoTime() - deadline > 0);
        java.util.List<String> unmatched = p2p.openOn(context, true);
        if (unmatched.isEmpty()) {
            engine().awaitCondition(() -> p2p.openOn(context, false).isEmpty());
        }
        attributes.clear();
        freed = true;
        if (!unmatched.isEmpty()) {
            throw raise("MPI_Comm_disconnect", ErrorClass.ERR_PENDING, unmatched.size() + " operation(s) of this "
                    + "process on the communicator cannot complete: " + String.join("; ", unmatched) + " (MPI "
                    + "requires every communication to be complete or matched before disconnect; cancel or "
                    + "complete them first)");
        }
    }

    /** How long MPI_Comm_disconnect lets this process's posted receives find their messages. */
    static final long DISCONNECT_MATCH_MILLIS = 10_000;

    /** True for an inter-communicator (MPI_Comm_test_inter). */
    public final boolean isInter() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_test_inter");
        return isInterComm();
    }

    /** Called on the peer communicator: MPI_Intercomm_create(localComm, localLeader, this, ...). */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader,
                                           int tag) throws MPIException {
        return CommCreation.createIntercomm(this, localComm, localLeader, remoteLeader, tag);
    }

    // ------------------------------------------------------------------ groups and topology

    /** The group of this communicator's members (MPI_Comm_group). */
    public final Group getGroup() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_group");
        return new Group(world.clone());
    }

    /** The remote group: Intercomm.getRemoteGroup() returns this. */
    final Group remoteGroup(String call) throws MPIException {
        MPI.check();
        checkUsable(call);
        return new Group(remote.clone());
    }

    /** MPI.CART, MPI.GRAPH, MPI.DIST_GRAPH or MPI.UNDEFINED. */
    public final int getTopology() throws MPIException {
        MPI.check();
        checkUsable("MPI_Topo_test");
        return topologyKind();
    }

    int topologyKind() {
        return MPI.UNDEFINED;
    }

    /** In-neighbours in neighbourhood-collective order; null without a topology. */
    int[] neighborSources() {
        return null;
    }

    /** Out-neighbours in neighbourhood-collective order; null without a topology. */
    int[] neighborDestinations() {
        return null;
    }

    // ------------------------------------------------------------------ attributes

    /** Creates a new attribute key for communicators (MPI_Comm_create_keyval). */
    public static int createKeyval() throws MPIException {
        MPI.check();
        return Attributes.createKeyval(Attributes.Kind.COMM);
    }

    /** Frees an attribute key made by {@link #createKeyval} (MPI_Comm_free_keyval). */
    public static void freeKeyval(int keyval) throws MPIException {
        MPI.check();
        try {
            Attributes.freeKeyval(Attributes.Kind.COMM, keyval);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.raise("MPI_Comm_free_keyval", e.getErrorClass(), e.getMessage());
        }
    }

    /** Stores a Java-serialized copy of {@code value} (which must be Serializable). */
    public final void setAttr(int keyval, Object value) throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_set_attr");
        try {
            attributes.check(Attributes.Kind.COMM, keyval);
            attributes.set(keyval, value);
        } catch (MPIException e) {
            throw raise("MPI_Comm_set_attr", e.getErrorClass(), e.getMessage());
        }
    }

    /**
     * A deserialized copy of the value, or null if unset. The predefined keyvals (on COMM_WORLD
     * and its dups) give Integers, WTIME_IS_GLOBAL a Boolean.
     */
    public final Object getAttr(int keyval) throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_get_attr");
        if (keyval >= 0 && keyval < Attributes.FIRST_USER_KEYVAL) {
            Object v = predefinedAttr(keyval);
            if (v == null && keyval > MPI.UNIVERSE_SIZE) {
                throw raise("MPI_Comm_get_attr", ErrorClass.ERR_KEYVAL, "keyval " + keyval
                        + " is not a communicator attribute");
            }
            return this == MPI.COMM_WORLD || attributes.predefined() ? v : null;
        }
        try {
            attributes.check(Attributes.Kind.COMM, keyval);
            return attributes.get(keyval);
        } catch (MPIException e) {
            throw raise("MPI_Comm_get_attr", e.getErrorClass(), e.getMessage());
        }
    }

    private Object predefinedAttr(int keyval) {
        if (keyval == MPI.TAG_UB) {
            return MPI.TAG_UB_VALUE;
        } else if (keyval == MPI.HOST) {
            return MPI.PROC_NULL;
        } else if (keyval == MPI.IO) {
            return MPI.ANY_SOURCE; // every rank can do I/O
        } else if (keyval == MPI.WTIME_IS_GLOBAL) {
            return Boolean.FALSE;
        } else if (keyval == MPI.APPNUM) {
            return process.bootstrap().appNum();
        } else if (keyval == MPI.LASTUSEDCODE) {
            return MPI.ERR_LASTCODE;
        } else if (keyval == MPI.UNIVERSE_SIZE) {
            return process.bootstrap().universeSize();
        }
        return null;
    }

    /** Removes the attribute stored under {@code keyval} (MPI_Comm_delete_attr). */
    public final void deleteAttr(int keyval) throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_delete_attr");
        try {
            attributes.check(Attributes.Kind.COMM, keyval);
        } catch (MPIException e) {
            throw raise("MPI_Comm_delete_attr", e.getErrorClass(), e.getMessage());
        }
        if (!attributes.delete(keyval)) {
            throw raise("MPI_Comm_delete_attr", ErrorClass.ERR_KEYVAL, "keyval " + keyval
                    + " has no value on this communicator");
        }
    }

    /** Names this communicator, for error messages and tools (MPI_Comm_set_name). */
    public final void setName(String name) throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_set_name");
        if (name == null) {
            throw raise("MPI_Comm_set_name", ErrorClass.ERR_ARG, "name is null");
        }
        this.name = name.length() > MPI.MAX_OBJECT_NAME ? name.substring(0, MPI.MAX_OBJECT_NAME)
                : name;
    }

    /** The communicator's name, empty if none was set (MPI_Comm_get_name). */
    public final String getName() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_get_name");
        return name;
    }

    /**
     * Sets the error handler: {@link MPI#ERRORS_ARE_FATAL} ends the job on an error, {@link
     * MPI#ERRORS_RETURN} throws {@link MPIException} to the caller (MPI_Comm_set_errhandler).
     */
    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_set_errhandler");
        if (errhandler == null) {
            throw raise("MPI_Comm_set_errhandler", ErrorClass.ERR_ARG, "error handler is null");
        }
        this.errhandler = errhandler;
    }

    /** The error handler in force on this communicator (MPI_Comm_get_errhandler). */
    public final Errhandler getErrhandler() throws MPIException {
        MPI.check();
        checkUsable("MPI_Comm_get_errhandler");
        return errhandler;
    }

    /**
     * Invokes this communicator's error handler with {@code errorCode}: under ERRORS_ARE_FATAL the
     * job ends; under ERRORS_RETURN the handler does nothing and the call returns (as in Open
     * MPI, whose MPI_Comm_call_errhandler then returns MPI_SUCCESS).
     */
    public void callErrhandler(int errorCode) throws MPIException {
        if (errhandler.fatal) {
            throw raise("MPI_Comm_call_errhandler", errorCode, ErrorClass.describe(errorCode));
        }
    }

    /** MPI_Abort: ends the whole job with {@code errorcode}. */
    public final void abort(int errorcode) throws MPIException {
        MPI.check();
        MPI.abortJob(errorcode, "MPI_Abort called on " + (name.isEmpty() ? "a communicator" : name)
                + " with error code " + errorcode);
    }

    /** Blocks until every member of this communicator has called it (MPI_Barrier). */
    public final void barrier() throws MPIException {
        GroupCollectives.barrier(this, false);
    }

    // ------------------------------------------------------------------ blocking sends

    /**
     * Standard-mode send (MPI_Send): returns once the buffer may be reused. Takes Java arrays, heap
     * or direct buffers and memory segments.
     */
    public final void send(Object buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        blockingSend("MPI_Send", buf, count, type, dest, tag, Mode.STANDARD);
    }

    /** Synchronous send (MPI_Ssend): returns once the receiver has matched the message. */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        blockingSend("MPI_Ssend", buf, count, type, dest, tag, Mode.SYNCHRONOUS);
    }

    /** Ready-mode send (MPI_Rsend): the matching receive must already be posted. */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        blockingSend("MPI_Rsend", buf, count, type, dest, tag, Mode.READY);
    }

    /**
     * Buffered send: copies the message into the buffer attached with {@link MPI#attachBuffer} and
     * returns (MPI_Bsend).
     */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        blockingSend("MPI_Bsend", buf, count, type, dest, tag, Mode.BUFFERED);
    }

    private void blockingSend(String call, Object buf, int count, Datatype type, int dest,
                              int tag, Mode mode) throws MPIException {
        // Fast path when every argument is valid (anything else takes the checked path below).
        if ((mode == Mode.STANDARD || mode == Mode.READY) && plainSend(count, type, dest, tag)) {
            MemorySegment seg = CommArgs.sendSegment(this, call, buf, count, type);
            try {
                if (engine().p2p().sendNow(context, rank, remote[dest], tag, seg)) {
                    return; // eager and taken at once: no request needed
                }
            } catch (MpiError e) {
                throw raise(call, e);
            }
        }
        RequestState op = startSend(call, buf, count, type, dest, tag, mode);
        if (op.isComplete()) {
            return;
        }
        try {
            engine().await(op);
        } catch (MpiError e) {
            throw raise(call, e);
        }
    }

    /**
     * True when every argument of a send is valid and names a real peer: the fast paths of
     * send and iSend then skip the checked path (anything else takes it, and its errors).
     */
    private boolean plainSend(int count, Datatype type, int dest, int tag) {
        return MPI.initialized() && process != null && !freed && dest >= 0 && dest < remote.length
                && count >= 0 && type != null && type.usable() && tag >= 0
                && tag <= MPI.TAG_UB_VALUE && !process.checkTypes();
    }

    /** verbatim.core.check-types is on: sends carry and receives compare type signatures. */
    private boolean checkingTypes() {
        return process != null && process.checkTypes();
    }

    /** Checks everything, then posts the send; nothing is sent on bad input. */
    final RequestState startSend(String call, Object buf, int count, Datatype type, int dest,
                                 int tag, Mode mode) throws MPIException {
        MPI.check();
        checkUsable(call);
        CommArgs.checkCountType(this, call, count, type);
        CommArgs.checkDest(this, call, dest);
        CommArgs.checkSendTag(this, call, tag);
        MemorySegment seg;
        Layout layout = null;
        if (type.isLayout()) {
            LayoutBuffers.Resolved r = CommArgs.layoutSend(this, call, buf, count, type);
            if (mode == Mode.BUFFERED) {
                seg = LayoutBuffers.pack(r); // the attached-buffer copy is the packed message
            } else {
                seg = r.base();
                layout = new TypeLayout(r.shape());
            }
        } else {
            seg = CommArgs.sendSegment(this, call, buf, count, type);
        }
        if (dest == MPI.PROC_NULL) {
            return RequestState.completed(MPI.PROC_NULL, MPI.ANY_TAG, 0);
        }
        Object keep = buf;
        Runnable release = null;
        if (mode == Mode.BUFFERED) {
            long need = seg.byteSize();
            if (!MPI.bsendReserve(need)) {
                // Open MPI's rule: a buffered send that can complete at once (eager, taken by
                // the transport now) needs no room in the attached buffer
                try {
                    if (engine().p2p().sendNow(context, rank, remote[dest], tag, seg)) {
                        return RequestState.completed(MPI.PROC_NULL, MPI.ANY_TAG, 0);
                    }
                } catch (MpiError e) {
                    throw raise(call, e);
                }
                throw raise(call, ErrorClass.ERR_BUFFER, "attached buffer too small for "
                        + need + " bytes (plus MPI.BSEND_OVERHEAD), and the message cannot go "
                        + "at once; attach more with MPI.attachBuffer");
            }
            byte[] copy = new byte[(int) need];
            MemorySegment.copy(seg, 0, MemorySegment.ofArray(copy), 0, need);
            seg = MemorySegment.ofArray(copy);
            keep = copy;
            release = () -> MPI.bsendRelease(need);
        }
        try {
            SendOp op = engine().p2p().send(context, rank, remote[dest], tag, seg, layout, keep,
                    mode == Mode.BUFFERED ? Mode.STANDARD : mode,
                    checkingTypes() ? TypeSignatures.code(type, count) : 0);
            if (release != null) {
                op.whenDone(release);
                // MPI_Bsend is local: the data now lives in the attached buffer, so the call (and
                // an ibSend request) completes without waiting for the receiver to match it.
                return RequestState.completed(MPI.PROC_NULL, MPI.ANY_TAG, 0);
            }
            return op;
        } catch (MpiError e) {
            if (release != null) {
                release.run();
            }
            throw raise(call, e);
        }
    }

    // ------------------------------------------------------------------ receives

    /**
     * Receives a message into the buffer and returns its status (MPI_Recv). {@link MPI#ANY_SOURCE}
     * and {@link MPI#ANY_TAG} match any sender or tag.
     *
     * <p>Kept small on purpose (the receive itself is {@link #blockingReceive}): the JIT then
     * inlines this method into the caller's loop, where the {@code Status} of a caller that
     * drops it or only reads its fields is never allocated (escape analysis). Compiled as one
     * large method, every blocking receive allocated its 40-byte Status (issue 17).
     */
    public final Status recv(Object buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        RequestState r = blockingReceive(buf, count, type, source, tag);
        return new Status(r.source(), r.tag(), r.error(), r.bytes(), r.cancelled());
    }

    /**
     * MPI_Recv without its Status: checks, receives, waits, and returns the completed state
     * (read at once: below MPI_THREAD_MULTIPLE it is the runtime's one reused blocking receive);
     * an error of the receive is raised here.
     */
    final RequestState blockingReceive(Object buf, int count, Datatype type, int source,
                                         int tag) throws MPIException {
        String call = "MPI_Recv";
        if (type == null || !type.usable() || checkingTypes()) {
            // a derived layout type, or a type startRecv refuses with its error
            RequestState r = startRecv(call, buf, count, type, source, tag);
            awaitReceive(call, r);
            return r;
        }
        MPI.check();
        checkUsable(call);
        CommArgs.checkCountType(this, call, count, type);
        CommArgs.checkSource(this, call, source);
        CommArgs.checkRecvTag(this, call, tag);
        MemorySegment seg = CommArgs.recvSegment(this, call, buf, count, type);
        if (source == MPI.PROC_NULL) {
            // made here, not held in a static: MPI's constants are not set yet while Comm's
            // class initialises (MPI creates COMM_WORLD first)
            return RequestState.completed(MPI.PROC_NULL, MPI.ANY_TAG, 0);
        }
        RecvOp op;
        try {
            op = engine().p2p().receiveBlocking(context, source, tag, seg, buf,
                    Buffers.booleanCopyBack(buf, seg));
        } catch (MpiError e) {
            throw raise(call, e);
        }
        awaitReceive(call, op);
        return op;
    }

    /** Waits for a blocking receive; raises its error (as MPI_Wait would). */
    private void awaitReceive(String call, RequestState r) throws MPIException {
        try {
            engine().await(r);
        } catch (MpiError e) {
            throw raise(call, e);
        }
        if (r.error() != 0) {
            throw raise(call, r.error(), Request.describeError(r));
        }
    }

    final RequestState startRecv(String call, Object buf, int count, Datatype type, int source,
                                 int tag) throws MPIException {
        MPI.check();
        checkUsable(call);
        CommArgs.checkCountType(this, call, count, type);
        CommArgs.checkSource(this, call, source);
        CommArgs.checkRecvTag(this, call, tag);
        if (type.isLayout()) {
            LayoutBuffers.Resolved r = CommArgs.layoutReceive(this, call, buf, count, type);
            if (source == MPI.PROC_NULL) {
                return RequestState.completed(MPI.PROC_NULL, MPI.ANY_TAG, 0);
            }
            try {
                return engine().p2p().receive(context, source, tag, r.base(),
                        new TypeLayout(r.shape()), buf, r.copyBack(),
                        checkingTypes() ? TypeSignatures.check(type, count) : null);
            } catch (MpiError e) {
                throw raise(call, e);
            }
        }
        MemorySegment seg = CommArgs.recvSegment(this, call, buf, count, type);
        if (source == MPI.PROC_NULL) {
            return RequestState.completed(MPI.PROC_NULL, MPI.ANY_TAG, 0);
        }
        try {
            RecvOp op = engine().p2p().receive(context, source, tag, seg, null, buf,
                    Buffers.booleanCopyBack(buf, seg), checkingTypes() ? TypeSignatures.check(type, count) : null);
            return op;
        } catch (MpiError e) {
            throw raise(call, e);
        }
    }

    /**
     * Sends to {@code dest} and receives from {@code source} in one call, without deadlock whatever
     * the order of the peers (MPI_Sendrecv).
     */
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest,
                                 int sendtag, Object recvbuf, int recvcount, Datatype recvtype,
                                 int source, int recvtag) throws MPIException {
        RequestState r = startRecv("MPI_Sendrecv", recvbuf, recvcount, recvtype, source, recvtag);
        RequestState s = startSend("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag,
                Mode.STANDARD);
        try {
            engine().await(s);
        } catch (MpiError e) {
            throw raise("MPI_Sendrecv", e);
        }
        return new Request(r, this, "MPI_Sendrecv").waitStatus();
    }

    /**
     * As {@link #sendRecv}, with the received message replacing the sent one in the same buffer
     * (MPI_Sendrecv_replace).
     */
    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest,
                                        int sendtag, int source, int recvtag) throws MPIException {
        MPI.check();
        checkUsable("MPI_Sendrecv_replace");
        CommArgs.checkCountType(this, "MPI_Sendrecv_replace", count, type);
        MemorySegment original = type.isLayout()
                ? LayoutBuffers.pack(CommArgs.layoutSend(this, "MPI_Sendrecv_replace", buf, count,
                        type))
                : CommArgs.sendSegment(this, "MPI_Sendrecv_replace", buf, count, type);
        byte[] copy = new byte[(int) original.byteSize()];
        MemorySegment.copy(original, 0, MemorySegment.ofArray(copy), 0, copy.length);
        RequestState r = startRecv("MPI_Sendrecv_replace", buf, count, type, source, recvtag);
        RequestState s;
        if (dest == MPI.PROC_NULL) {
            CommArgs.checkSendTag(this, "MPI_Sendrecv_replace", sendtag);
            s = RequestState.completed(MPI.PROC_NULL, MPI.ANY_TAG, 0);
        } else {
            CommArgs.checkDest(this, "MPI_Sendrecv_replace", dest);
            CommArgs.checkSendTag(this, "MPI_Sendrecv_replace", sendtag);
            try {
                s = engine().p2p().send(context, rank, remote[dest], sendtag, MemorySegment.ofArray(copy),
                        copy, Mode.STANDARD);
            } catch (MpiError e) {
                throw raise("MPI_Sendrecv_replace", e);
            }
        }
        try {
            engine().await(s);
        } catch (MpiError e) {
            throw raise("MPI_Sendrecv_replace", e);
        }
        return new Request(r, this, "MPI_Sendrecv_replace").waitStatus();
    }

    // ------------------------------------------------------------------ nonblocking

    /**
     * Starts a standard-mode send and returns its request; the buffer must stay unchanged until the
     * request completes (MPI_Isend). Takes Java arrays, heap or direct buffers and memory segments.
     */
    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        requireDirect(buf);
        return iSend((Object) buf, count, type, dest, tag);
    }

    /**
     * Verbatim extension: nonblocking send from an array (kept reachable until complete) or,
     * zero-copy, from a {@link MemorySegment}. (Not a MemorySegment overload: next to
     * {@link #iSend(Buffer, int, Datatype, int, int)} it would make Open MPI programs' bare
     * {@code iSend(null, 0, ...)} ambiguous.)
     */
    public final Request iSend(Object buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        // Fast path as the blocking send's: an eager message the transport takes at once is
        // complete when posted (its bytes were copied out), so the request needs no operation.
        if (plainSend(count, type, dest, tag)) {
            MemorySegment seg = CommArgs.sendSegment(this, "MPI_Isend", buf, count, type);
            try {
                if (engine().p2p().sendNow(context, rank, remote[dest], tag, seg)) {
                    return new Request(sentState(seg.byteSize()), this, "MPI_Isend");
                }
            } catch (MpiError e) {
                throw raise("MPI_Isend", e);
            }
        }
        return new Request(startSend("MPI_Isend", buf, count, type, dest, tag, Mode.STANDARD),
                this, "MPI_Isend");
    }

    /**
     * The last completed-send state handed out: immutable, so requests of one size share it.
     * Never null (no first-use branch: see SegmentCache.find).
     */
    private RequestState sent = RequestState.completed(0, 0, -1);

    /** A completed send's state for {@code bytes} (status: source 0, tag 0, the byte count). */
    private RequestState sentState(long bytes) {
        RequestState s = sent;
        if (s.bytes() != bytes) {
            s = RequestState.completed(0, 0, bytes);
            sent = s;
        }
        return s;
    }

    /**
     * Nonblocking buffered send (MPI_Ibsend), through the buffer attached with {@link
     * MPI#attachBuffer}.
     */
    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        requireDirect(buf);
        return new Request(startSend("MPI_Ibsend", buf, count, type, dest, tag, Mode.BUFFERED),
                this, "MPI_Ibsend");
    }

    /**
     * Nonblocking synchronous send (MPI_Issend): the request completes once the receiver has
     * matched the message.
     */
    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        requireDirect(buf);
        return new Request(startSend("MPI_Issend", buf, count, type, dest, tag,
                Mode.SYNCHRONOUS), this, "MPI_Issend");
    }

    /** Nonblocking ready-mode send (MPI_Irsend): the matching receive must already be posted. */
    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        requireDirect(buf);
        return new Request(startSend("MPI_Irsend", buf, count, type, dest, tag, Mode.READY),
                this, "MPI_Irsend");
    }

    /**
     * Starts a receive and returns its request; the buffer may be read once the request completes
     * (MPI_Irecv). Takes Java arrays, heap or direct buffers and memory segments.
     */
    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        requireDirect(buf);
        return iRecv((Object) buf, count, type, source, tag);
    }

    /**
     * Verbatim extension: nonblocking receive into an array (kept reachable until complete) or,
     * zero-copy, into a {@link MemorySegment} (an Object parameter, as {@link #iSend(Object, int,
     * Datatype, int, int)}, so that {@code iRecv(null, 0, ...)} stays the Buffer form).
     */
    public final Request iRecv(Object buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        Request r = new Request(startRecv("MPI_Irecv", buf, count, type, source, tag), this,
                "MPI_Irecv");
        r.recyclesReceive = true;
        return r;
    }

    // ------------------------------------------------------------------ persistent

    private Prequest persistentSend(String call, Buffer buf, int count, Datatype type, int dest,
                                    int tag, Mode mode) throws MPIException {
        MPI.check();
        requireDirect(buf);
        checkUsable(call);
        CommArgs.checkCountType(this, call, count, type);
        CommArgs.checkDest(this, call, dest);
        CommArgs.checkSendTag(this, call, tag);
        if (type.isLayout()) {
            CommArgs.layoutSend(this, call, buf, count, type);
        } else {
            CommArgs.sendSegment(this, call, buf, count, type);
        }
        return new Prequest(() -> startSend(call, buf, count, type, dest, tag, mode), this, call);
    }

    /**
     * Creates a persistent standard-mode send request, started with {@link Prequest#start}
     * (MPI_Send_init).
     */
    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        return persistentSend("MPI_Send_init", buf, count, type, dest, tag, Mode.STANDARD);
    }

    /**
     * Creates a persistent buffered-send request, started with {@link Prequest#start}
     * (MPI_Bsend_init).
     */
    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        return persistentSend("MPI_Bsend_init", buf, count, type, dest, tag, Mode.BUFFERED);
    }

    /** Creates a persistent synchronous send request (MPI_Ssend_init). */
    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        return persistentSend("MPI_Ssend_init", buf, count, type, dest, tag, Mode.SYNCHRONOUS);
    }

    /** Creates a persistent ready-mode send request (MPI_Rsend_init). */
    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        return persistentSend("MPI_Rsend_init", buf, count, type, dest, tag, Mode.READY);
    }

    /**
     * Creates a persistent receive request, started with {@link Prequest#start} (MPI_Recv_init).
     */
    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        MPI.check();
        requireDirect(buf);
        checkUsable("MPI_Recv_init");
        CommArgs.checkCountType(this, "MPI_Recv_init", count, type);
        CommArgs.checkSource(this, "MPI_Recv_init", source);
        CommArgs.checkRecvTag(this, "MPI_Recv_init", tag);
        if (type.isLayout()) {
            CommArgs.layoutReceive(this, "MPI_Recv_init", buf, count, type);
        } else {
            CommArgs.recvSegment(this, "MPI_Recv_init", buf, count, type);
        }
        return new Prequest(() -> startRecv("MPI_Recv_init", buf, count, type, source, tag), this,
                "MPI_Recv_init");
    }

    // ------------------------------------------------------------------ probe

    /**
     * Checks, without blocking, whether a matching message has arrived: its status, or null
     * (MPI_Iprobe).
     */
    public final Status iProbe(int source, int tag) throws MPIException {
        MPI.check();
        checkUsable("MPI_Iprobe");
        CommArgs.checkSource(this, "MPI_Iprobe", source);
        CommArgs.checkRecvTag(this, "MPI_Iprobe", tag);
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, 0, false);
        }
        try {
            Unexpected u = engine().p2p().probe(context, source, tag, false);
            return u == null ? null : new Status(u.source(), u.tag(), 0, u.length(), false);
        } catch (MpiError e) {
            throw raise("MPI_Iprobe", e);
        }
    }

    /**
     * Blocks until a matching message has arrived and returns its status, without receiving it
     * (MPI_Probe).
     */
    public final Status probe(int source, int tag) throws MPIException {
        MPI.check();
        checkUsable("MPI_Probe");
        CommArgs.checkSource(this, "MPI_Probe", source);
        CommArgs.checkRecvTag(this, "MPI_Probe", tag);
        if (source == MPI.PROC_NULL) {
            return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, 0, false);
        }
        try {
            Unexpected[] found = new Unexpected[1];
            engine().awaitCondition(() ->
                    (found[0] = engine().p2p().probe(context, source, tag, false)) != null);
            return new Status(found[0].source(), found[0].tag(), 0, found[0].length(), false);
        } catch (MpiError e) {
            throw raise("MPI_Probe", e);
        }
    }

    // ------------------------------------------------------------------ collectives

    /** True for an inter-communicator (the remote group is not the local one). */
    final boolean isInterComm() {
        return remote != world;
    }

    /**
     * Nonblocking {@link #barrier} (MPI_Ibarrier): the request completes once every member has
     * called it.
     */
    public final Request iBarrier() throws MPIException {
        return GroupCollectives.barrier(this, true);
    }

    /**
     * Broadcasts {@code count} elements from {@code root}'s buffer into every member's (MPI_Bcast).
     */
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        RootedCollectives.bcast(this, buf, count, type, root, false);
    }

    /** Nonblocking {@link #bcast} (MPI_Ibcast). */
    public final Request iBcast(Buffer buf, int count, Datatype type, int root)
            throws MPIException {
        return RootedCollectives.bcast(this, buf, count, type, root, true);
    }

    /**
     * Gathers {@code sendcount} elements from every member into {@code root}'s buffer, in rank
     * order (MPI_Gather). The form with one buffer works in place at the root.
     */
    public final void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                             int recvcount, Datatype recvtype, int root) throws MPIException {
        RootedCollectives.gather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, false);
    }

    /** In place: the root's block is already in buf; the others send count items from buf. */
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        if (rank == root) {
            RootedCollectives.gather(this, null, 0, type, buf, count, type, root, false);
        } else {
            RootedCollectives.gather(this, buf, count, type, null, 0, type, root, false);
        }
    }

    /** Nonblocking {@link #gather} (MPI_Igather). */
    public final Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                 int recvcount, Datatype recvtype, int root) throws MPIException {
        return RootedCollectives.gather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, root, true);
    }

    /** Nonblocking {@link #gather} (MPI_Igather). */
    public final Request iGather(Buffer buf, int count, Datatype type, int root)
            throws MPIException {
        return rank == root
                ? RootedCollectives.gather(this, null, 0, type, buf, count, type, root, true)
                : RootedCollectives.gather(this, buf, count, type, null, 0, type, root, true);
    }

    /** Non-root side of the in-place form. */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root)
            throws MPIException {
        RootedCollectives.gatherv(this, sendbuf, sendcount, sendtype, null, null, null, sendtype,
                root, false);
    }

    /**
     * Gathers a varying number of elements from every member into {@code root}'s buffer at the
     * given displacements (MPI_Gatherv).
     */
    public final void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                              int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        RootedCollectives.gatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                recvtype, root, false);
    }

    /** Root side of the in-place form (the root's block at displs[root]). */
    public final void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype,
                              int root) throws MPIException {
        RootedCollectives.gatherv(this, null, 0, recvtype, recvbuf, recvcount, displs, recvtype,
                root, false);
    }

    /** Nonblocking {@link #gatherv} (MPI_Igatherv). */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                  int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return RootedCollectives.gatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs, recvtype, root, true);
    }

    /** Nonblocking {@link #gatherv} (MPI_Igatherv). */
    public final Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype,
                                  int root) throws MPIException {
        return RootedCollectives.gatherv(this, null, 0, recvtype, recvbuf, recvcount, displs,
                recvtype, root, true);
    }

    /** Nonblocking {@link #gatherv} (MPI_Igatherv). */
    public final Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root)
            throws MPIException {
        return RootedCollectives.gatherv(this, sendbuf, sendcount, sendtype, null, null, null,
                sendtype, root, true);
    }

    /**
     * Sends block {@code i} of {@code root}'s buffer to rank {@code i} (MPI_Scatter). The form with
     * one buffer works in place at the root.
     */
    public final void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                              int recvcount, Datatype recvtype, int root) throws MPIException {
        RootedCollectives.scatter(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                root, false);
    }

    /** In place: the root keeps its block in buf; the others receive count items into buf. */
    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        if (rank == root) {
            RootedCollectives.scatter(this, buf, count, type, null, 0, type, root, false);
        } else {
            RootedCollectives.scatter(this, null, 0, type, buf, count, type, root, false);
        }
    }

    /** Nonblocking {@link #scatter} (MPI_Iscatter). */
    public final Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                  int recvcount, Datatype recvtype, int root) throws MPIException {
        return RootedCollectives.scatter(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, root, true);
    }

    /** Nonblocking {@link #scatter} (MPI_Iscatter). */
    public final Request iScatter(Buffer buf, int count, Datatype type, int root)
            throws MPIException {
        return rank == root
                ? RootedCollectives.scatter(this, buf, count, type, null, 0, type, root, true)
                : RootedCollectives.scatter(this, null, 0, type, buf, count, type, root, true);
    }

    /** Non-root side of the in-place form. */
    public final void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root)
            throws MPIException {
        RootedCollectives.scatterv(this, null, null, null, recvtype, recvbuf, recvcount, recvtype,
                root, false);
    }

    /** As {@link #scatter}, with a count and displacement per rank (MPI_Scatterv). */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                               Object recvbuf, int recvcount, Datatype recvtype, int root)
            throws MPIException {
        RootedCollectives.scatterv(this, sendbuf, sendcount, displs, sendtype, recvbuf, recvcount,
                recvtype, root, false);
    }

    /** Root side of the in-place form. */
    public final void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype,
                               int root) throws MPIException {
        RootedCollectives.scatterv(this, sendbuf, sendcount, displs, sendtype, null, 0, sendtype,
                root, false);
    }

    /** Nonblocking {@link #scatterv} (MPI_Iscatterv). */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs,
                                   Datatype sendtype, Buffer recvbuf, int recvcount,
                                   Datatype recvtype, int root) throws MPIException {
        return RootedCollectives.scatterv(this, sendbuf, sendcount, displs, sendtype, recvbuf,
                recvcount, recvtype, root, true);
    }

    /** Nonblocking {@link #scatterv} (MPI_Iscatterv). */
    public final Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs,
                                   Datatype sendtype, int root) throws MPIException {
        return RootedCollectives.scatterv(this, sendbuf, sendcount, displs, sendtype, null, 0,
                sendtype, root, true);
    }

    /** Nonblocking {@link #scatterv} (MPI_Iscatterv). */
    public final Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root)
            throws MPIException {
        return RootedCollectives.scatterv(this, null, null, null, recvtype, recvbuf, recvcount,
                recvtype, root, true);
    }

    /**
     * Gathers {@code count} elements from every member into every member, in rank order
     * (MPI_Allgather). The form with one buffer works in place: each rank's own block is already in
     * it.
     */
    public final void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                int recvcount, Datatype recvtype) throws MPIException {
        GroupCollectives.allGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, false);
    }

    /**
     * Gathers {@code count} elements from every member into every member, in rank order
     * (MPI_Allgather). The form with one buffer works in place: each rank's own block is already in
     * it.
     */
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        GroupCollectives.allGather(this, null, 0, type, buf, count, type, false);
    }

    /** Nonblocking {@link #allGather} (MPI_Iallgather): returns a request to test or wait on. */
    public final Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype,
                                    Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return GroupCollectives.allGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, true);
    }

    /** Nonblocking {@link #allGather} (MPI_Iallgather): returns a request to test or wait on. */
    public final Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        return GroupCollectives.allGather(this, null, 0, type, buf, count, type, true);
    }

    /**
     * Gathers a varying number of elements from every member into every member at the given
     * displacements (MPI_Allgatherv). The form with one buffer works in place.
     */
    public final void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype)
            throws MPIException {
        GroupCollectives.allGatherv(this, null, 0, recvtype, recvbuf, recvcount, displs, recvtype,
                false);
    }

    /**
     * Gathers a varying number of elements from every member into every member at the given
     * displacements (MPI_Allgatherv). The form with one buffer works in place.
     */
    public final void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                                 int[] recvcount, int[] displs, Datatype recvtype)
            throws MPIException {
        GroupCollectives.allGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount, displs,
                recvtype, false);
    }

    /** Nonblocking {@link #allGatherv} (MPI_Iallgatherv). */
    public final Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype,
                                     Buffer recvbuf, int[] recvcount, int[] displs,
                                     Datatype recvtype) throws MPIException {
        return GroupCollectives.allGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs, recvtype, true);
    }

    /** Nonblocking {@link #allGatherv} (MPI_Iallgatherv). */
    public final Request iAllGatherv(Buffer buf, int[] count, int[] displs, Datatype type)
            throws MPIException {
        return GroupCollectives.allGatherv(this, null, 0, type, buf, count, displs, type, true);
    }

    /**
     * Sends block {@code j} of the send buffer to rank {@code j} and receives block {@code i} from
     * rank {@code i} (MPI_Alltoall).
     */
    public final void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
                               int recvcount, Datatype recvtype) throws MPIException {
        GroupCollectives.allToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, false);
    }

    /** Nonblocking {@link #allToAll} (MPI_Ialltoall). */
    public final Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype,
                                   Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return GroupCollectives.allToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, true);
    }

    /** As {@link #allToAll}, with a count and displacement per peer (MPI_Alltoallv). */
    public final void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                Object recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        GroupCollectives.allToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls, recvtype, false);
    }

    /** Nonblocking {@link #allToAllv} (MPI_Ialltoallv). */
    public final Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls,
                                    Datatype sendtype, Buffer recvbuf, int[] recvcount,
                                    int[] rdispls, Datatype recvtype) throws MPIException {
        return GroupCollectives.allToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls, recvtype, true);
    }

    /** As {@link #allToAllv}, with byte displacements and a datatype per peer (MPI_Alltoallw). */
    public final void allToAllw(Object sendBuf, int[] sendCount, int[] sDispls,
                                Datatype[] sendTypes, Object recvBuf, int[] recvCount,
                                int[] rDispls, Datatype[] recvTypes) throws MPIException {
        GroupCollectives.allToAllw(this, sendBuf, sendCount, sDispls, sendTypes, recvBuf,
                recvCount, rDispls, recvTypes, false);
    }

    /** Nonblocking {@link #allToAllw} (MPI_Ialltoallw). */
    public final Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls,
                                    Datatype[] sendTypes, Buffer recvBuf, int[] recvCount,
                                    int[] rDispls, Datatype[] recvTypes) throws MPIException {
        return GroupCollectives.allToAllw(this, sendBuf, sendCount, sDispls, sendTypes, recvBuf,
                recvCount, rDispls, recvTypes, true);
    }

    /**
     * Gathers {@code sendcount} elements from each neighbour of this process in the communicator's
     * topology (MPI_Neighbor_allgather).
     */
    public final void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype,
                                        Object recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        NeighborCollectives.allGather(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                null, recvtype, false);
    }

    /** Nonblocking {@link #neighborAllGather} (MPI_Ineighbor_allgather). */
    public final Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype,
                                            Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return NeighborCollectives.allGather(this, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, null, recvtype, true);
    }

    /**
     * As {@link #neighborAllGather}, with a count and displacement per neighbour
     * (MPI_Neighbor_allgatherv).
     */
    public final void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype,
                                         Object recvbuf, int[] recvcount, int[] displs,
                                         Datatype recvtype) throws MPIException {
        NeighborCollectives.allGatherv(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                displs, recvtype, false);
    }

    /** Nonblocking {@link #neighborAllGatherv} (MPI_Ineighbor_allgatherv). */
    public final Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype,
                                             Buffer recvbuf, int[] recvcount, int[] displs,
                                             Datatype recvtype) throws MPIException {
        return NeighborCollectives.allGatherv(this, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, displs, recvtype, true);
    }

    /**
     * Sends a block to each neighbour in the communicator's topology and receives one from each
     * (MPI_Neighbor_alltoall).
     */
    public final void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype,
                                       Object recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        NeighborCollectives.allToAll(this, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                recvtype, false);
    }

    /** Nonblocking {@link #neighborAllToAll} (MPI_Ineighbor_alltoall). */
    public final Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype,
                                           Buffer recvbuf, int recvcount, Datatype recvtype)
            throws MPIException {
        return NeighborCollectives.allToAll(this, sendbuf, sendcount, sendtype, recvbuf,
                recvcount, recvtype, true);
    }

    /**
     * As {@link #neighborAllToAll}, with counts and displacements per neighbour
     * (MPI_Neighbor_alltoallv).
     */
    public final void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls,
                                        Datatype sendtype, Object recvbuf, int[] recvcount,
                                        int[] rdispls, Datatype recvtype) throws MPIException {
        NeighborCollectives.allToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls, recvtype, false);
    }

    /** Nonblocking {@link #neighborAllToAllv} (MPI_Ineighbor_alltoallv). */
    public final Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls,
                                            Datatype sendtype, Buffer recvbuf, int[] recvcount,
                                            int[] rdispls, Datatype recvtype) throws MPIException {
        return NeighborCollectives.allToAllv(this, sendbuf, sendcount, sdispls, sendtype, recvbuf,
                recvcount, rdispls, recvtype, true);
    }

    /**
     * Combines every member's vector with {@code op} into {@code root}'s receive buffer
     * (MPI_Reduce). The form with one buffer works in place at the root.
     */
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                             int root) throws MPIException {
        RootedCollectives.reduce(this, sendbuf, recvbuf, count, type, op, root, false);
    }

    /** In place: at the root buf is input and result; the others send buf. */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root)
            throws MPIException {
        RootedCollectives.reduce(this, null, buf, count, type, op, root, false);
    }

    /** Nonblocking {@link #reduce} (MPI_Ireduce). */
    public final Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op,
                                 int root) throws MPIException {
        return RootedCollectives.reduce(this, sendbuf, recvbuf, count, type, op, root, true);
    }

    /** Nonblocking {@link #reduce} (MPI_Ireduce). */
    public final Request iReduce(Buffer buf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return RootedCollectives.reduce(this, null, buf, count, type, op, root, true);
    }

    /**
     * Combines every member's vector with {@code op} and gives the result to every member
     * (MPI_Allreduce). The form with one buffer works in place.
     */
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        GroupCollectives.allReduce(this, sendbuf, recvbuf, count, type, op, false);
    }

    /**
     * Combines every member's vector with {@code op} and gives the result to every member
     * (MPI_Allreduce). The form with one buffer works in place.
     */
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        GroupCollectives.allReduce(this, null, buf, count, type, op, false);
    }

    /** Nonblocking {@link #allReduce} (MPI_Iallreduce). */
    public final Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type,
                                    Op op) throws MPIException {
        return GroupCollectives.allReduce(this, sendbuf, recvbuf, count, type, op, true);
    }

    /** Nonblocking {@link #allReduce} (MPI_Iallreduce). */
    public final Request iAllReduce(Buffer buf, int count, Datatype type, Op op)
            throws MPIException {
        return GroupCollectives.allReduce(this, null, buf, count, type, op, true);
    }

    /**
     * Combines every member's vector with {@code op} and scatters the result, {@code recvcounts[i]}
     * elements to rank {@code i} (MPI_Reduce_scatter).
     */
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts,
                                    Datatype type, Op op) throws MPIException {
        GroupCollectives.reduceScatter(this, sendbuf, recvbuf, recvcounts, type, op, false,
                "MPI_Reduce_scatter");
    }

    /**
     * Combines every member's vector with {@code op} and scatters the result, {@code recvcounts[i]}
     * elements to rank {@code i} (MPI_Reduce_scatter).
     */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op)
            throws MPIException {
        GroupCollectives.reduceScatter(this, null, buf, counts, type, op, false,
                "MPI_Reduce_scatter");
    }

    /** Nonblocking {@link #reduceScatter} (MPI_Ireduce_scatter). */
    public final Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts,
                                        Datatype type, Op op) throws MPIException {
        return GroupCollectives.reduceScatter(this, sendbuf, recvbuf, recvcounts, type, op, true,
                "MPI_Ireduce_scatter");
    }

    /** Nonblocking {@link #reduceScatter} (MPI_Ireduce_scatter). */
    public final Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op)
            throws MPIException {
        return GroupCollectives.reduceScatter(this, null, buf, counts, type, op, true,
                "MPI_Ireduce_scatter");
    }

    /**
     * As {@link #reduceScatter} with {@code recvcount} elements for every rank
     * (MPI_Reduce_scatter_block).
     */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount,
                                         Datatype type, Op op) throws MPIException {
        GroupCollectives.reduceScatterBlock(this, sendbuf, recvbuf, recvcount, type, op, false);
    }

    /**
     * As {@link #reduceScatter} with {@code recvcount} elements for every rank
     * (MPI_Reduce_scatter_block).
     */
    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op)
            throws MPIException {
        GroupCollectives.reduceScatterBlock(this, null, buf, count, type, op, false);
    }

    /** Nonblocking {@link #reduceScatterBlock} (MPI_Ireduce_scatter_block). */
    public final Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount,
                                             Datatype type, Op op) throws MPIException {
        return GroupCollectives.reduceScatterBlock(this, sendbuf, recvbuf, recvcount, type, op,
                true);
    }

    /** Nonblocking {@link #reduceScatterBlock} (MPI_Ireduce_scatter_block). */
    public final Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op)
            throws MPIException {
        return GroupCollectives.reduceScatterBlock(this, null, buf, count, type, op, true);
    }

    // ------------------------------------------------------------------ pack

    /**
     * Packs {@code incount} elements of {@code inbuf} into {@code outbuf} from byte {@code
     * position}; returns the position after them (MPI_Pack).
     */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position)
            throws MPIException {
        return (int) pack(inbuf, incount, type,
                outbuf == null ? null : MemorySegment.ofArray(outbuf), (long) position);
    }

    /**
     * Verbatim extension: MPI_Pack into native (or any writable) memory; {@code position} is a
     * byte offset in {@code outbuf}. Returns the new position.
     */
    public final long pack(Object inbuf, int incount, Datatype type, MemorySegment outbuf,
                           long position) throws MPIException {
        String call = "MPI_Pack";
        MPI.check();
        CommArgs.checkCountType(this, call, incount, type);
        LayoutBuffers.Resolved r = type.isLayout()
                ? CommArgs.layoutSend(this, call, inbuf, incount, type) : null;
        MemorySegment in = r == null
                ? CommArgs.sendSegment(this, call, inbuf, incount, type) : null;
        long bytes = r != null ? r.bytes() : in.byteSize();
        if (outbuf == null || outbuf.isReadOnly() || position < 0
                || position + bytes > outbuf.byteSize()) {
            throw raise(call, ErrorClass.ERR_BUFFER, "output buffer too small or read-only: need "
                    + bytes + " bytes at position " + position);
        }
        if (r != null) {
            r.shape().cursor().pack(r.base(), outbuf, position, bytes);
        } else {
            MemorySegment.copy(in, 0, outbuf, position, bytes);
        }
        return position + bytes;
    }

    /**
     * Unpacks {@code outcount} elements from {@code inbuf} at byte {@code position} into {@code
     * outbuf}; returns the position after them (MPI_Unpack).
     */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount,
                            Datatype type) throws MPIException {
        return (int) unpack(inbuf == null ? null : MemorySegment.ofArray(inbuf), (long) position,
                outbuf, outcount, type);
    }

    /**
     * Verbatim extension: MPI_Unpack from native (or any) memory; {@code position} is a byte
     * offset in {@code inbuf}. Returns the new position.
     */
    public final long unpack(MemorySegment inbuf, long position, Object outbuf, int outcount,
                             Datatype type) throws MPIException {
        String call = "MPI_Unpack";
        MPI.check();
        CommArgs.checkCountType(this, call, outcount, type);
        LayoutBuffers.Resolved r = type.isLayout()
                ? CommArgs.layoutReceive(this, call, outbuf, outcount, type) : null;
        MemorySegment out = r == null
                ? CommArgs.recvSegment(this, call, outbuf, outcount, type) : null;
        long bytes = r != null ? r.bytes() : out.byteSize();
        if (inbuf == null || position < 0 || position + bytes > inbuf.byteSize()) {
            throw raise(call, ErrorClass.ERR_TRUNCATE, "input holds fewer than " + bytes
                    + " bytes at position " + position);
        }
        if (r != null) {
            LayoutBuffers.unpack(inbuf.asSlice(position, bytes), bytes, r);
        } else {
            MemorySegment.copy(inbuf, position, out, 0, bytes);
            Runnable back = Buffers.booleanCopyBack(outbuf, out);
            if (back != null) {
                back.run();
            }
        }
        return position + bytes;
    }

    /**
     * The bytes that {@link #pack} needs for {@code incount} elements of {@code type}
     * (MPI_Pack_size).
     */
    public final int packSize(int incount, Datatype type) throws MPIException {
        MPI.check();
        CommArgs.checkCountType(this, "MPI_Pack_size", incount, type);
        return (int) type.bytes(incount);
    }

    // ------------------------------------------------------------------ local reduction

    /**
     * MPI_Reduce_local: {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]} for {@code count} elements
     * of {@code type}. Errors are reported through {@code MPI.COMM_WORLD}'s error handler;
     * exceptions thrown by a user function reach the caller unchanged.
     */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op)
            throws MPIException {
        MPI.check();
        final String call = "MPI_Reduce_local";
        CommArgs.checkCountType(MPI.COMM_WORLD, call, count, type);
        if (op == null) {
            throw raiseOnWorld(call, ErrorClass.ERR_OP, "operation is null");
        }
        if (type.isLayout()) {
            try {
                op.check(type);
                LayoutBuffers.Resolved r = LayoutBuffers.forReceive(inOutBuf, count, type);
                MemorySegment in = LayoutBuffers.pack(LayoutBuffers.forSend(inBuf, count, type));
                MemorySegment inout = LayoutBuffers.pack(r);
                op.apply(in, inout, count, type);
                LayoutBuffers.unpack(inout, inout.byteSize(), r);
            } catch (MPIException e) {
                throw raiseOnWorld(call, e.getErrorClass(), e.getMessage());
            }
            return;
        }
        boolean booleans = inOutBuf instanceof boolean[];
        MemorySegment in, inout;
        try {
            op.check(type);
            in = Buffers.forSend(inBuf, count, type);
            // a boolean[] inout is read too: forSend converts it to bytes, copied back below
            inout = booleans ? Buffers.forSend(inOutBuf, count, type)
                    : Buffers.forReceive(inOutBuf, count, type);
        } catch (MPIException e) {
            throw raiseOnWorld(call, e.getErrorClass(), e.getMessage());
        }
        op.apply(in, inout, count, type);
        if (booleans) {
            Buffers.booleanCopyBack(inOutBuf, inout).run();
        }
    }

    /** The communicator's name, rank and size, for debugging. */
    @Override
    public String toString() {
        return "Comm[" + (name.isEmpty() ? "context " + context : name) + "]";
    }
}
