package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.verbatim.runtime.MpiProcess;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.rma.RmaWindow;
import org.verbatim.runtime.rma.WindowProvider;

/**
 * An MPI window (MPI-3.1 chapter 11) with the signatures of Open MPI's Java bindings, plus
 * MemorySegment overloads, the memory of allocated windows handed back to Java
 * ({@link #getBase()}) and {@link #sharedQuery}. The calls check their arguments here
 * ({@link WinArgs}) and delegate to the {@link WindowProvider} of the onesided module; without that
 * module on the class path every call fails with MPI_ERR_UNSUPPORTED_OPERATION.
 */
public final class Win implements Freeable {
    public static final int WIN_NULL = 0, FLAVOR_PRIVATE = 0, FLAVOR_SHARED = 1;

    private RmaWindow impl;
    private WinGroup group;
    private Group winGroup;
    private Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    private String name = "";
    private Info info;
    private Attributes attributes = new Attributes();
    /** Memory the program passed in (kept reachable while the window lives). */
    private Object keepAlive;
    /** Bytes per element of the base buffer that sized the window (1 for segments). */
    private final int unit;

    /** MPI_Win_create_dynamic. */
    public Win(Info info, Comm comm) throws MPIException {
        String call = "MPI_Win_create_dynamic";
        this.unit = 1;
        WindowProvider p = begin(call, comm, info);
        impl = create(call, comm, () -> p.createDynamic(group, infoMap(info)));
    }

    /** MPI_Win_create on a direct buffer; size and dispUnit in elements of the buffer's type. */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        String call = "MPI_Win_create";
        this.unit = WinArgs.elementSize(base);
        MemorySegment memory = WinArgs.windowMemory(comm, call, base, size, unit);
        WindowProvider p = begin(call, comm, info);
        keepAlive = base;
        impl = create(call, comm, () -> p.create(group, memory,
                WinArgs.dispBytes(comm, call, dispUnit, unit), infoMap(info)));
    }

    /** MPI_Win_create on native memory; {@code dispUnit} in bytes. */
    public Win(MemorySegment base, int dispUnit, Info info, Comm comm) throws MPIException {
        String call = "MPI_Win_create";
        this.unit = 1;
        if (base == null || !base.isNative()) {
            throw WinArgs.badArg(comm, call, ErrorClass.ERR_BASE, "window memory must be a native"
                    + " MemorySegment");
        }
        WindowProvider p = begin(call, comm, info);
        keepAlive = base;
        impl = create(call, comm, () -> p.create(group, base,
                WinArgs.dispBytes(comm, call, dispUnit, 1), infoMap(info)));
    }

    /**
     * MPI_Win_allocate ({@link #FLAVOR_PRIVATE}) or MPI_Win_allocate_shared
     * ({@link #FLAVOR_SHARED});
     * size and dispUnit in elements of {@code base}'s type. Open MPI's bindings lose the memory;
     * here {@link #getBase()} gives it back.
     */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor)
            throws MPIException {
        String call = flavor == FLAVOR_SHARED ? "MPI_Win_allocate_shared" : "MPI_Win_allocate";
        this.unit = base == null ? 1 : WinArgs.elementSize(base);
        if (flavor != FLAVOR_PRIVATE && flavor != FLAVOR_SHARED) {
            throw WinArgs.badArg(comm, call, ErrorClass.ERR_ARG, "flavor " + flavor
                    + " is neither FLAVOR_PRIVATE nor FLAVOR_SHARED");
        }
        long bytes = WinArgs.allocBytes(comm, call, size, unit);
        int du = WinArgs.dispBytes(comm, call, dispUnit, unit);
        WindowProvider p = begin(call, comm, info);
        impl = create(call, comm, () -> p.allocate(group, bytes, du, flavor == FLAVOR_SHARED,
                infoMap(info)));
    }

    private Win(long bytes, int dispUnit, Info info, Comm comm, boolean shared)
            throws MPIException {
        String call = shared ? "MPI_Win_allocate_shared" : "MPI_Win_allocate";
        this.unit = 1;
        if (bytes < 0) {
            throw WinArgs.badArg(comm, call, ErrorClass.ERR_SIZE, "negative size " + bytes);
        }
        int du = WinArgs.dispBytes(comm, call, dispUnit, 1);
        WindowProvider p = begin(call, comm, info);
        impl = create(call, comm, () -> p.allocate(group, bytes, du, shared, infoMap(info)));
    }

    /** MPI_Win_allocate of {@code bytes}; {@link #getBase()} is the memory. */
    public static Win allocate(long bytes, int dispUnit, Info info, Comm comm)
            throws MPIException {
        return new Win(bytes, dispUnit, info, comm, false);
    }

    /** MPI_Win_allocate_shared of {@code bytes}; see {@link #sharedQuery}. */
    public static Win allocateShared(long bytes, int dispUnit, Info info, Comm comm)
            throws MPIException {
        return new Win(bytes, dispUnit, info, comm, true);
    }

    /**
     * Runs the provider's half of a creation call: its errors (memory that cannot be shared, a
     * lock mode the transports cannot do, ...) go to the communicator's error handler, as MPI
     * says for window creation (there is no window yet whose handler the program could set).
     */
    private static RmaWindow create(String call, Comm comm, Body<RmaWindow> body)
            throws MPIException {
        try {
            return body.run();
        } catch (MpiError e) {
            throw comm.raise(call, e.errorClass(), e.getMessage());
        } catch (MPIException e) {
            throw comm.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    private WindowProvider begin(String call, Comm comm, Info info) throws MPIException {
        MPI.check();
        if (comm == null) {
            throw MPI.COMM_WORLD.raise(call, ErrorClass.ERR_COMM, "communicator is null");
        }
        comm.checkUsable(call);
        if (!(comm instanceof Intracomm ic) || comm.isInter()) {
            throw comm.raise(call, ErrorClass.ERR_COMM, "windows need an intra-communicator");
        }
        if (info != null && info.isNull() && info != MPI.INFO_NULL) {
            throw comm.raise(call, ErrorClass.ERR_INFO, "info has been freed");
        }
        MpiProcess process = MPI.process();
        WindowProvider p = process.extension(WindowProvider.class);
        if (p == null) {
            throw comm.raise(call, ErrorClass.ERR_UNSUPPORTED_OPERATION, "one-sided "
                    + "communication needs the verbatim-onesided module on the class path");
        }
        this.info = info == null || info.isNull() ? new Info() : info.dup();
        this.group = new WinGroup(ic);
        this.winGroup = comm.getGroup();
        return p;
    }

    private static Map<String, String> infoMap(Info info) throws MPIException {
        Map<String, String> m = new LinkedHashMap<>();
        if (info != null && !info.isNull()) {
            for (int i = 0; i < info.size(); i++) {
                String k = info.getKey(i);
                m.put(k, info.get(k));
            }
        }
        return m;
    }

    // ------------------------------------------------------------------ errors

    interface Body<T> {
        T run() throws MPIException;
    }

    interface VoidBody {
        void run() throws MPIException;
    }

    /** Runs a window call: MPI must be live and the window usable; errors go to the handler. */
    <T> T wrap(String call, Body<T> body) throws MPIException {
        MPI.check();
        try {
            return body.run();
        } catch (MpiError e) {
            throw raise(call, e.errorClass(), e.getMessage());
        } catch (MPIException e) {
            throw raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    void run(String call, VoidBody body) throws MPIException {
        wrap(call, () -> {
            body.run();
            return null;
        });
    }

    RmaWindow impl(String call) throws MPIException {
        if (impl == null) {
            throw MPIException.of(ErrorClass.ERR_WIN, "invalid window"
                    + (group == null ? "" : " (it has been freed)"));
        }
        return impl;
    }

    /** {@link #raise} for an error of the runtime or of the argument checks. */
    MPIException raise(String call, Exception e) {
        return e instanceof MpiError m ? raise(call, m.errorClass(), m.getMessage())
                : raise(call, ((MPIException) e).getErrorClass(), e.getMessage());
    }

    MPIException raise(String call, int errorClass, String reason) {
        if (errhandler.fatal) {
            MPI.fatal(call, errorClass, reason);
        }
        return MPIException.of(errorClass, call + ": " + reason);
    }

    /** MPI_Win_set_errhandler (ERRORS_ARE_FATAL by default, as Open MPI's windows). */
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        run("MPI_Win_set_errhandler", () -> {
            impl("MPI_Win_set_errhandler");
            if (errhandler == null) {
                throw MPIException.of(ErrorClass.ERR_ARG, "error handler is null");
            }
            this.errhandler = errhandler;
        });
    }

    /** MPI_Win_get_errhandler. */
    public Errhandler getErrhandler() throws MPIException {
        return wrap("MPI_Win_get_errhandler", () -> {
            impl("MPI_Win_get_errhandler");
            return errhandler;
        });
    }

    /**
     * Invokes this window's error handler with {@code errorCode}: under ERRORS_ARE_FATAL the job
     * ends; under ERRORS_RETURN the call returns.
     */
    public void callErrhandler(int errorCode) throws MPIException {
        MPI.check();
        if (errhandler.fatal) {
            throw raise("MPI_Win_call_errhandler", errorCode, ErrorClass.describe(errorCode));
        }
    }

    // ------------------------------------------------------------------ memory

    /** The memory of this process's part of the window (allocate: owned by the window). */
    public MemorySegment getBase() throws MPIException {
        return wrap("MPI_Win_get_attr", () -> impl("MPI_Win_get_attr").base());
    }

    /** MPI_Win_shared_query: {@code rank}'s window memory as mapped here, or null. */
    public MemorySegment sharedQuery(int rank) throws MPIException {
        String call = "MPI_Win_shared_query";
        return wrap(call, () -> {
            RmaWindow w = impl(call);
            if (w.flavor() != RmaWindow.FLAVOR_SHARED) {
                throw MPIException.of(ErrorClass.ERR_RMA_FLAVOR, "not a shared window");
            }
            WinArgs.checkRank(rank, group.size(), false);
            return w.sharedQuery(rank);
        });
    }

    /** The displacement unit (bytes) of {@code rank}'s part of the window. */
    public int sharedQueryDispUnit(int rank) throws MPIException {
        String call = "MPI_Win_shared_query";
        return wrap(call, () -> {
            WinArgs.checkRank(rank, group.size(), false);
            return impl(call).dispUnit(rank);
        });
    }

    /** MPI_Win_attach; size in elements of {@code base}. */
    public void attach(Buffer base, int size) throws MPIException {
        String call = "MPI_Win_attach";
        run(call, () -> {
            RmaWindow w = impl(call);
            int u = WinArgs.elementSize(base);
            MemorySegment m = WinArgs.windowMemory(group.comm(), call, base, size, u);
            w.attach(m);
        });
    }

    /** MPI_Win_attach of native memory (dynamic windows). */
    public void attach(MemorySegment memory) throws MPIException {
        run("MPI_Win_attach", () -> impl("MPI_Win_attach").attach(
                WinArgs.nativeSegment(memory, "attached memory")));
    }

    /** MPI_Win_detach of memory attached from a direct buffer. */
    public void detach(Buffer base) throws MPIException {
        String call = "MPI_Win_detach";
        run(call, () -> {
            if (base == null || !base.isDirect()) {
                throw new IllegalArgumentException("base must be a direct buffer");
            }
            impl(call).detach(MemorySegment.ofBuffer(base.duplicate().clear()));
        });
    }

    /** MPI_Win_detach of attached native memory. */
    public void detach(MemorySegment memory) throws MPIException {
        run("MPI_Win_detach", () -> impl("MPI_Win_detach").detach(
                WinArgs.nativeSegment(memory, "detached memory")));
    }

    // ------------------------------------------------------------------ communication

    /**
     * MPI_Put: {@code orgCount} x {@code orgType} from {@code origin} (a direct buffer) to {@code
     * targetRank}'s window at {@code targetDisp} target units. Complete at the origin, and at the
     * target, when the epoch's synchronisation call returns; outside an epoch ERR_RMA_SYNC,
     * outside the target's window ERR_RMA_RANGE (nothing written).
     */
    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                    int targetCount, Datatype targetType) throws MPIException {
        ops().put("MPI_Put", WinArgs.direct(origin), orgCount, orgType, targetRank, targetDisp,
                targetCount, targetType, false);
    }

    /** MPI_Put from any memory (heap or native); it must not change until the epoch ends. */
    public void put(MemorySegment origin, int orgCount, Datatype orgType, int targetRank,
                    long targetDisp, int targetCount, Datatype targetType) throws MPIException {
        ops().put("MPI_Put", origin, orgCount, orgType, targetRank, targetDisp, targetCount,
                targetType, false);
    }

    /**
     * MPI_Get: the target's data into {@code origin}, there once the epoch's synchronisation call
     * (or a flush) returns.
     */
    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                    int targetCount, Datatype targetType) throws MPIException {
        ops().get("MPI_Get", WinArgs.direct(origin), orgCount, orgType, targetRank, targetDisp,
                targetCount, targetType, false);
    }

    /** MPI_Get into any memory (heap or native); targetDisp is an address for dynamic windows. */
    public void get(MemorySegment origin, int orgCount, Datatype orgType, int targetRank,
                    long targetDisp, int targetCount, Datatype targetType) throws MPIException {
        ops().get("MPI_Get", origin, orgCount, orgType, targetRank, targetDisp, targetCount,
                targetType, false);
    }

    /**
     * MPI_Accumulate with a predefined operation (REPLACE and NO_OP included): element-atomic
     * against every other accumulate to the same location, and ordered with this origin's other
     * accumulates to it.
     */
    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank,
                           int targetDisp, int targetCount, Datatype targetType, Op op)
            throws MPIException {
        ops().accumulate("MPI_Accumulate", WinArgs.direct(origin), orgCount, orgType, targetRank,
                targetDisp, targetCount, targetType, op, false);
    }

    /** MPI_Accumulate from any memory; see the Buffer overload. */
    public void accumulate(MemorySegment origin, int orgCount, Datatype orgType, int targetRank,
                           long targetDisp, int targetCount, Datatype targetType, Op op)
            throws MPIException {
        ops().accumulate("MPI_Accumulate", origin, orgCount, orgType, targetRank, targetDisp,
                targetCount, targetType, op, false);
    }

    /**
     * MPI_Get_accumulate: the target's data before the operation into {@code resultAddr},
     * atomically with the update; with NO_OP {@code origin} may be null.
     */
    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
                              int resultCount, Datatype resultType, int targetRank,
                              int targetDisp, int targetCount, Datatype targetType, Op op)
            throws MPIException {
        ops().getAccumulate("MPI_Get_accumulate", WinArgs.directOrNull(origin, op), orgCount,
                orgType, WinArgs.direct(resultAddr), resultCount, resultType, targetRank,
                targetDisp, targetCount, targetType, op, false);
    }

    /** MPI_Get_accumulate with any memory; see the Buffer overload. */
    public void getAccumulate(MemorySegment origin, int orgCount, Datatype orgType,
                              MemorySegment result, int resultCount, Datatype resultType,
                              int targetRank, long targetDisp, int targetCount,
                              Datatype targetType, Op op) throws MPIException {
        ops().getAccumulate("MPI_Get_accumulate", origin, orgCount, orgType, result, resultCount,
                resultType, targetRank, targetDisp, targetCount, targetType, op, false);
    }

    /** MPI_Fetch_and_op: getAccumulate of one element. */
    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank,
                           int targetDisp, Op op) throws MPIException {
        ops().getAccumulate("MPI_Fetch_and_op", WinArgs.directOrNull(origin, op), 1, dataType,
                WinArgs.direct(resultAddr), 1, dataType, targetRank, targetDisp, 1, dataType, op,
                false);
    }

    /** MPI_Fetch_and_op with any memory. */
    public void fetchAndOp(MemorySegment origin, MemorySegment result, Datatype dataType,
                           int targetRank, long targetDisp, Op op) throws MPIException {
        ops().getAccumulate("MPI_Fetch_and_op", origin, 1, dataType, result, 1, dataType,
                targetRank, targetDisp, 1, dataType, op, false);
    }

    /**
     * MPI_Compare_and_swap on one element of an integer, byte, char or boolean type: the target's
     * value into {@code resultAddr}; {@code origin} replaces it if it equals {@code compareAddr}.
     */
    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr,
                               Datatype targetType, int targetRank, int targetDisp)
            throws MPIException {
        ops().compareAndSwap(WinArgs.direct(origin), WinArgs.direct(compareAddr),
                WinArgs.direct(resultAddr), targetType, targetRank, targetDisp);
    }

    /** MPI_Compare_and_swap with any memory. */
    public void compareAndSwap(MemorySegment origin, MemorySegment compare, MemorySegment result,
                               Datatype targetType, int targetRank, long targetDisp)
            throws MPIException {
        ops().compareAndSwap(origin, compare, result, targetType, targetRank, targetDisp);
    }

    /**
     * MPI_Rput: put with a request that completes when {@code origin_addr} may be reused; only
     * inside lock or lockAll epochs.
     */
    public final Request rPut(Buffer origin_addr, int origin_count, Datatype origin_datatype,
                              int target_rank, int target_disp, int target_count,
                              Datatype target_datatype) throws MPIException {
        return ops().put("MPI_Rput", WinArgs.direct(origin_addr), origin_count, origin_datatype,
                target_rank, target_disp, target_count, target_datatype, true);
    }

    /** MPI_Rput from any memory; only inside lock or lockAll epochs. */
    public final Request rPut(MemorySegment origin, int orgCount, Datatype orgType,
                              int targetRank, long targetDisp, int targetCount,
                              Datatype targetType) throws MPIException {
        return ops().put("MPI_Rput", origin, orgCount, orgType, targetRank, targetDisp,
                targetCount, targetType, true);
    }

    /**
     * MPI_Rget: get with a request that completes when the data is in {@code origin}; only inside
     * lock or lockAll epochs.
     */
    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank,
                              int targetDisp, int targetCount, Datatype targetType)
            throws MPIException {
        return ops().get("MPI_Rget", WinArgs.direct(origin), orgCount, orgType, targetRank,
                targetDisp, targetCount, targetType, true);
    }

    /** MPI_Rget into any memory; only inside lock or lockAll epochs. */
    public final Request rGet(MemorySegment origin, int orgCount, Datatype orgType,
                              int targetRank, long targetDisp, int targetCount,
                              Datatype targetType) throws MPIException {
        return ops().get("MPI_Rget", origin, orgCount, orgType, targetRank, targetDisp,
                targetCount, targetType, true);
    }

    /** MPI_Raccumulate; only inside lock or lockAll epochs. */
    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank,
                               int targetDisp, int targetCount, Datatype targetType, Op op)
            throws MPIException {
        return ops().accumulate("MPI_Raccumulate", WinArgs.direct(origin), orgCount, orgType,
                targetRank, targetDisp, targetCount, targetType, op, true);
    }

    /** MPI_Raccumulate from any memory; only inside lock or lockAll epochs. */
    public Request rAccumulate(MemorySegment origin, int orgCount, Datatype orgType,
                               int targetRank, long targetDisp, int targetCount,
                               Datatype targetType, Op op) throws MPIException {
        return ops().accumulate("MPI_Raccumulate", origin, orgCount, orgType, targetRank,
                targetDisp, targetCount, targetType, op, true);
    }

    /** MPI_Rget_accumulate; only inside lock or lockAll epochs. */
    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType,
                                  Buffer resultAddr, int resultCount, Datatype resultType,
                                  int targetRank, int targetDisp, int targetCount,
                                  Datatype targetType, Op op) throws MPIException {
        return ops().getAccumulate("MPI_Rget_accumulate", WinArgs.directOrNull(origin, op),
                orgCount, orgType, WinArgs.direct(resultAddr), resultCount, resultType,
                targetRank, targetDisp, targetCount, targetType, op, true);
    }

    /** MPI_Rget_accumulate with any memory; only inside lock or lockAll epochs. */
    public Request rGetAccumulate(MemorySegment origin, int orgCount, Datatype orgType,
                                  MemorySegment result, int resultCount, Datatype resultType,
                                  int targetRank, long targetDisp, int targetCount,
                                  Datatype targetType, Op op) throws MPIException {
        return ops().getAccumulate("MPI_Rget_accumulate", origin, orgCount, orgType, result,
                resultCount, resultType, targetRank, targetDisp, targetCount, targetType, op,
                true);
    }

    /** The data calls (stateless apart from this window): one per window, none per call. */
    private final WinOps ops = new WinOps(this);

    private WinOps ops() {
        return ops;
    }

    WinGroup group() {
        return group;
    }

    Request request(RequestState state, String call, Object keep) {
        Request r = new Request(state, group.comm(), call);
        r.keepAlive = keep;
        return r;
    }

    // ------------------------------------------------------------------ synchronisation

    /**
     * MPI_Win_fence (collective): completes the epoch before it and opens the next; MODE_NOPRECEDE
     * and MODE_NOSUCCEED skip those halves. The design is {@code verbatim.rma.fence}
     * (docs/configuration.md).
     */
    public void fence(int assertion) throws MPIException {
        MPI.check(); // the epoch calls: no lambda (a loop of short epochs is common)
        try {
            impl("MPI_Win_fence").fence(WinArgs.assertion(assertion, MPI.MODE_NOSTORE
                    | MPI.MODE_NOPUT | MPI.MODE_NOPRECEDE | MPI.MODE_NOSUCCEED));
        } catch (MpiError | MPIException e) {
            throw raise("MPI_Win_fence", e);
        }
    }

    /**
     * MPI_Win_start: opens an access epoch to {@code group}; waits for their posts unless
     * MODE_NOCHECK.
     */
    public void start(Group group, int assertion) throws MPIException {
        MPI.check();
        try {
            impl("MPI_Win_start").start(ranksOf(group), WinArgs.assertion(assertion,
                    MPI.MODE_NOCHECK));
        } catch (MpiError | MPIException e) {
            throw raise("MPI_Win_start", e);
        }
    }

    /**
     * MPI_Win_complete: ends the access epoch; the operations are complete at the targets when
     * they see it.
     */
    public void complete() throws MPIException {
        MPI.check();
        try {
            impl("MPI_Win_complete").complete();
        } catch (MpiError | MPIException e) {
            throw raise("MPI_Win_complete", e);
        }
    }

    /** MPI_Win_post: opens an exposure epoch to the origins in {@code group}. */
    public void post(Group group, int assertion) throws MPIException {
        MPI.check();
        try {
            impl("MPI_Win_post").post(ranksOf(group), WinArgs.assertion(assertion,
                    MPI.MODE_NOCHECK | MPI.MODE_NOSTORE | MPI.MODE_NOPUT));
        } catch (MpiError | MPIException e) {
            throw raise("MPI_Win_post", e);
        }
    }

    /** MPI_Win_wait: waits until every origin of the exposure epoch has completed. */
    public void waitFor() throws MPIException {
        MPI.check();
        try {
            impl("MPI_Win_wait").waitFor();
        } catch (MpiError | MPIException e) {
            throw raise("MPI_Win_wait", e);
        }
    }

    /** MPI_Win_test: waitFor that does not wait; true when the exposure epoch ended. */
    public boolean test() throws MPIException {
        return wrap("MPI_Win_test", () -> impl("MPI_Win_test").test());
    }

    /**
     * MPI_Win_lock: a passive-target epoch on {@code rank}. Windows allocated on one host take the
     * lock by CPU atomics; others by messages the target answers when it makes progress. A waiting
     * exclusive request holds back later shared ones.
     */
    public void lock(int lockType, int rank, int assertion) throws MPIException {
        MPI.check();
        try {
            RmaWindow w = impl("MPI_Win_lock");
            if (lockType != MPI.LOCK_EXCLUSIVE && lockType != MPI.LOCK_SHARED) {
                throw MPIException.of(ErrorClass.ERR_LOCKTYPE, "lock type " + lockType
                        + " is neither LOCK_EXCLUSIVE nor LOCK_SHARED");
            }
            WinArgs.checkRank(rank, group.size(), false);
            w.lock(lockType == MPI.LOCK_EXCLUSIVE, rank,
                    WinArgs.assertion(assertion, MPI.MODE_NOCHECK));
        } catch (MpiError | MPIException e) {
            throw raise("MPI_Win_lock", e);
        }
    }

    /** MPI_Win_unlock: the epoch's operations are complete at the target when it returns. */
    public void unlock(int rank) throws MPIException {
        MPI.check();
        try {
            RmaWindow w = impl("MPI_Win_unlock");
            WinArgs.checkRank(rank, group.size(), false);
            w.unlock(rank);
        } catch (MpiError | MPIException e) {
            throw raise("MPI_Win_unlock", e);
        }
    }

    /** MPI_Win_lock_all: a shared lock on every member. */
    public void lockAll(int assertion) throws MPIException {
        run("MPI_Win_lock_all", () -> impl("MPI_Win_lock_all").lockAll(
                WinArgs.assertion(assertion, MPI.MODE_NOCHECK)));
    }

    /** MPI_Win_unlock_all. */
    public void unlockAll() throws MPIException {
        run("MPI_Win_unlock_all", () -> impl("MPI_Win_unlock_all").unlockAll());
    }

    /**
     * MPI_Win_sync: a full memory fence (windows are unified: public and private copies are one).
     */
    public void sync() throws MPIException {
        run("MPI_Win_sync", () -> impl("MPI_Win_sync").sync());
    }

    /**
     * MPI_Win_flush: this origin's operations to {@code targetRank} are complete there when it
     * returns.
     */
    public void flush(int targetRank) throws MPIException {
        MPI.check(); // no lambda: a flush per operation is a common loop
        try {
            RmaWindow w = impl("MPI_Win_flush");
            WinArgs.checkRank(targetRank, group.size(), false);
            w.flush(targetRank);
        } catch (MpiError | MPIException e) {
            throw raise("MPI_Win_flush", e);
        }
    }

    /** MPI_Win_flush_all. */
    public void flushAll() throws MPIException {
        run("MPI_Win_flush_all", () -> impl("MPI_Win_flush_all").flushAll());
    }

    /**
     * MPI_Win_flush_local: this origin's buffers of operations to {@code targetRank} may be reused
     * (gets have their data).
     */
    public void flushLocal(int targetRank) throws MPIException {
        run("MPI_Win_flush_local", () -> {
            RmaWindow w = impl("MPI_Win_flush_local");
            WinArgs.checkRank(targetRank, group.size(), false);
            w.flushLocal(targetRank);
        });
    }

    /** MPI_Win_flush_local_all. */
    public void flushLocalAll() throws MPIException {
        run("MPI_Win_flush_local_all", () -> impl("MPI_Win_flush_local_all").flushLocalAll());
    }

    /** A group {@link #ranksOf} translated and its ranks (immutable: racing calls see a pair). */
    private record GroupRanks(Group group, int[] ranks) {
    }

    /**
     * The last two translations: PSCW epochs repeat the same groups, often two of them (post
     * to one, start on another).
     */
    private GroupRanks lastRanks;
    private GroupRanks olderRanks;

    /** {@code g}'s members as window ranks; the array is the window's to keep (never changed). */
    private int[] ranksOf(Group g) throws MPIException {
        if (g == null) {
            throw MPIException.of(ErrorClass.ERR_GROUP, "group is null");
        }
        GroupRanks last = lastRanks;
        GroupRanks older = olderRanks;
        if (!g.isNull()) { // groups do not change: the same group, the same ranks
            if (last != null && last.group == g) {
                return last.ranks;
            }
            if (older != null && older.group == g) {
                return older.ranks;
            }
        }
        int[] ranks = new int[g.getSize()];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = i;
        }
        int[] mine = Group.translateRanks(g, ranks, winGroup);
        for (int r : mine) {
            if (r == MPI.UNDEFINED) {
                throw MPIException.of(ErrorClass.ERR_GROUP, "group has a process outside the "
                        + "window");
            }
        }
        olderRanks = last;
        lastRanks = new GroupRanks(g, mine);
        return mine;
    }

    // ------------------------------------------------------------------ properties

    /** MPI_Win_get_group: a new group of the window's processes. */
    public Group getGroup() throws MPIException {
        return wrap("MPI_Win_get_group", () -> {
            impl("MPI_Win_get_group");
            return new Group(winGroup.worldRanks());
        });
    }

    /** MPI_Win_get_info: a copy of the window's info. */
    public Info getInfo() throws MPIException {
        return wrap("MPI_Win_get_info", () -> {
            impl("MPI_Win_get_info");
            return info.dup();
        });
    }

    /** MPI_Win_set_info: adds the entries of {@code info} to the window's. */
    public void setInfo(Info info) throws MPIException {
        run("MPI_Win_set_info", () -> {
            impl("MPI_Win_set_info");
            if (info == null || (info.isNull() && info != MPI.INFO_NULL)) {
                throw MPIException.of(ErrorClass.ERR_INFO, "invalid info");
            }
            if (!info.isNull()) {
                for (int i = 0; i < info.size(); i++) {
                    String k = info.getKey(i);
                    this.info.set(k, info.get(k));
                }
            }
        });
    }

    /** MPI_Win_get_name. */
    public String getName() throws MPIException {
        return wrap("MPI_Win_get_name", () -> {
            impl("MPI_Win_get_name");
            return name;
        });
    }

    /** MPI_Win_set_name (cut to MPI.MAX_OBJECT_NAME characters). */
    public void setName(String name) throws MPIException {
        run("MPI_Win_set_name", () -> {
            impl("MPI_Win_set_name");
            if (name == null) {
                throw MPIException.of(ErrorClass.ERR_ARG, "name is null");
            }
            this.name = name.length() > MPI.MAX_OBJECT_NAME
                    ? name.substring(0, MPI.MAX_OBJECT_NAME) : name;
        });
    }

    /** MPI_Win_create_keyval: a keyval for window attributes. */
    public static int createKeyval() throws MPIException {
        MPI.check();
        return Attributes.createKeyval(Attributes.Kind.WIN);
    }

    /** MPI_Win_free_keyval. */
    public static void freeKeyval(int keyval) throws MPIException {
        MPI.check();
        try {
            Attributes.freeKeyval(Attributes.Kind.WIN, keyval);
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.raise("MPI_Win_free_keyval", e.getErrorClass(), e.getMessage());
        }
    }

    /** MPI_Win_set_attr: stores a Java-serialized copy of {@code value}. */
    public void setAttr(int keyval, Object value) throws MPIException {
        run("MPI_Win_set_attr", () -> {
            impl("MPI_Win_set_attr");
            attributes.check(Attributes.Kind.WIN, keyval);
            attributes.set(keyval, value);
        });
    }

    /**
     * WIN_BASE: the address (Long; 0 for dynamic windows); WIN_SIZE: bytes (Integer);
     * WIN_DISP_UNIT: bytes (Integer); WIN_CREATE_FLAVOR and WIN_MODEL: Integer; a user keyval: a
     * deserialized copy, or null if unset.
     */
    public Object getAttr(int keyval) throws MPIException {
        return wrap("MPI_Win_get_attr", () -> {
            RmaWindow w = impl("MPI_Win_get_attr");
            if (keyval == MPI.WIN_BASE) {
                return w.base() == null ? 0L : w.base().address();
            } else if (keyval == MPI.WIN_SIZE) {
                return (int) Math.min(Integer.MAX_VALUE, w.size());
            } else if (keyval == MPI.WIN_DISP_UNIT) {
                return w.dispUnit();
            } else if (keyval == MPI.WIN_CREATE_FLAVOR) {
                return w.flavor();
            } else if (keyval == MPI.WIN_MODEL) {
                return w.model();
            }
            attributes.check(Attributes.Kind.WIN, keyval);
            return attributes.get(keyval);
        });
    }

    /** MPI_Win_delete_attr. */
    public void deleteAttr(int keyval) throws MPIException {
        run("MPI_Win_delete_attr", () -> {
            impl("MPI_Win_delete_attr");
            attributes.check(Attributes.Kind.WIN, keyval);
            if (!attributes.delete(keyval)) {
                throw MPIException.of(ErrorClass.ERR_KEYVAL, "keyval " + keyval
                        + " has no value on this window");
            }
        });
    }

    /** MPI_Win_free: collective; an open epoch is MPI_ERR_RMA_SYNC. */
    @Override
    public void free() throws MPIException {
        run("MPI_Win_free", () -> {
            impl("MPI_Win_free").free();
            impl = null;
            attributes = new Attributes();
            keepAlive = null;
            group.free();
        });
    }

    /** The window's name, for messages. */
    @Override
    public String toString() {
        return "Win[" + name + "]";
    }
}
