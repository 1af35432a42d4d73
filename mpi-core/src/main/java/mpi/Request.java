package mpi;

import org.verbatim.runtime.Engine;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;

/**
 * A nonblocking operation in flight. Completing a (non-persistent) request through wait or test
 * turns it into a null handle. The request keeps the operation's buffers reachable.
 */
public class Request implements Freeable {
    /** The runtime operation; null for a null handle or an inactive persistent request. */
    RequestState impl;
    /** The communicator whose error handler reports this request's errors. */
    final Comm comm;
    /** The call that created it, for error messages. */
    final String call;
    private boolean nullHandle;
    /** Buffers the operation uses, kept reachable until it completes. */
    Object keepAlive;

    Request(RequestState impl, Comm comm, String call) {
        this(impl, comm, call, impl == null);
    }

    /** {@code nullHandle} false with a null {@code impl}: an inactive persistent request. */
    Request(RequestState impl, Comm comm, String call, boolean nullHandle) {
        this.impl = impl;
        this.comm = comm;
        this.call = call;
        this.nullHandle = nullHandle;
    }

    /** A request that is already complete (MPI_Comm_idup, which completes at once). */
    static Request completed(Comm comm, String call) {
        return new Request(RequestState.completed(MPI.ANY_SOURCE, MPI.ANY_TAG, 0), comm, call);
    }

    /** MPI.REQUEST_NULL */
    static Request nullRequest() {
        return new Request(null, null, "MPI_REQUEST_NULL");
    }

    boolean persistent() {
        return false;
    }

    /** True if the request can still complete (not null, and started if persistent). */
    final boolean active() {
        return impl != null;
    }

    static Engine engine() throws MPIException {
        return MPI.process().engine();
    }

    /**
     * True for a nonblocking receive's request (MPI_Irecv): its operation goes back to the
     * runtime for reuse once this request has taken its completion (see retire).
     */
    boolean recyclesReceive;

    /** Called when the operation has completed and its status has been taken. */
    void retire() {
        RequestState r = impl;
        impl = null;
        if (!persistent()) {
            nullHandle = true;
        }
        if (recyclesReceive && r instanceof org.verbatim.runtime.p2p.RecvOp op) {
            recyclesReceive = false;
            op.recycle(); // to its own runtime's receive path: no process lookup (issue 17)
        }
    }

    /** The status of the finished operation; raises its error through the error handler. */
    final Status finish(RequestState r) throws MPIException {
        Status s = Status.of(r);
        retire();
        if (r.error() != 0 && comm != null) {
            throw raise(new MpiError(r.error(), describeError(r)));
        }
        return s;
    }

    /** Reports an error of this request through its communicator's (or file's) handler. */
    MPIException raise(MpiError e) {
        return comm.raise(call, e);
    }

    static String describeError(RequestState r) {
        if (r.error() == org.verbatim.runtime.base.ErrorClass.ERR_TRUNCATE) {
            return "message truncated: the message from rank " + r.source() + " (tag " + r.tag()
                    + ") is longer than the receive buffer (" + r.bytes() + " bytes received)";
        }
        return org.verbatim.runtime.base.ErrorClass.describe(r.error());
    }

    static Status emptyStatus() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, 0, false);
    }

    /** Frees the request; the operation itself still completes (MPI_Request_free). */
    @Override
    public void free() throws MPIException {
        MPI.check();
        impl = null;
        nullHandle = true;
    }

    /**
     * Asks to cancel the operation; {@link Status#isCancelled} tells whether it was (MPI_Cancel).
     */
    public final void cancel() throws MPIException {
        MPI.check();
        RequestState r = impl;
        if (r != null && !r.isComplete()) {
            r.cancel();
        }
    }

    /** True for a null request ({@link MPI#REQUEST_NULL}, or freed). */
    public final boolean isNull() {
        return nullHandle;
    }

    /** Waits until the operation has completed; returns its status (MPI_Wait). */
    public final Status waitStatus() throws MPIException {
        MPI.check();
        RequestState r = impl;
        if (r == null) {
            return emptyStatus();
        }
        try {
            engine().await(r);
        } catch (MpiError e) {
            throw raise(e);
        }
        return finish(r);
    }

    /** Waits until the operation has completed (MPI_Wait). */
    public final void waitFor() throws MPIException {
        waitStatus();
    }

    /** The status if the operation has completed, else null (MPI_Test). */
    public final Status testStatus() throws MPIException {
        MPI.check();
        RequestState r = impl;
        if (r == null) {
            return emptyStatus();
        }
        if (!r.isComplete()) {
            progress();
            if (!r.isComplete()) {
                return null;
            }
        }
        return finish(r);
    }

    /**
     * The status if the operation has completed, else null, without freeing the request
     * (MPI_Request_get_status).
     */
    public final Status getStatus() throws MPIException {
        MPI.check();
        RequestState r = impl;
        if (r == null) {
            return emptyStatus();
        }
        if (!r.isComplete()) {
            progress();
        }
        return r.isComplete() ? Status.of(r) : null;
    }

    /** True if the operation has completed (MPI_Test). */
    public final boolean test() throws MPIException {
        return testStatus() != null;
    }

    final void progress() throws MPIException {
        try {
            engine().progress();
        } catch (MpiError e) {
            throw raise(e);
        }
    }

    // ------------------------------------------------------------------ arrays

    private static boolean anyActive(Request[] requests) {
        for (Request q : requests) {
            if (q != null && q.active()) {
                return true;
            }
        }
        return false;
    }

    /** One progress pass; returns the work done (0: idle). */
    private static int progressAll(Request[] requests) throws MPIException {
        try {
            return engine().progress();
        } catch (MpiError e) {
            Comm c = MPI.COMM_WORLD;
            for (Request q : requests) {
                if (q != null && q.comm != null) {
                    c = q.comm;
                    break;
                }
            }
            throw c.raise("MPI_Wait", e);
        }
    }

    private static int firstComplete(Request[] requests) {
        for (int i = 0; i < requests.length; i++) {
            Request q = requests[i];
            if (q != null && q.active() && q.impl.isComplete()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Waits until one request has completed; returns its status, its index in {@link
     * Status#getIndex} (MPI_Waitany).
     */
    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        MPI.check();
        if (!anyActive(requests)) {
            return emptyStatus().withIndex(MPI.UNDEFINED);
        }
        int idle = 0;
        while (true) {
            int i = firstComplete(requests);
            if (i >= 0) {
                return requests[i].finish(requests[i].impl).withIndex(i);
            }
            idle = progressAll(requests) > 0 ? 0 : idleStep(idle);
        }
    }

    private static int idleStep(int count) throws MPIException {
        return engine().idle(count);
    }

    /** Waits until one request has completed; returns its index (MPI_Waitany). */
    public static int waitAny(Request[] requests) throws MPIException {
        return waitAnyStatus(requests).getIndex();
    }

    /**
     * The status of a completed request (its index in {@link Status#getIndex}), or null
     * (MPI_Testany).
     */
    public static Status testAnyStatus(Request[] requests) throws MPIException {
        MPI.check();
        if (!anyActive(requests)) {
            return emptyStatus().withIndex(MPI.UNDEFINED);
        }
        int i = firstComplete(requests);
        if (i < 0) {
            progressAll(requests);
            i = firstComplete(requests);
        }
        return i < 0 ? null : requests[i].finish(requests[i].impl).withIndex(i);
    }

    /**
     * The index of a completed request, or {@link MPI#UNDEFINED} if none has completed
     * (MPI_Testany).
     */
    public static int testAny(Request[] requests) throws MPIException {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    /** Waits until every request has completed; returns their statuses (MPI_Waitall). */
    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        MPI.check();
        int idle = 0;
        for (int from = firstIncomplete(requests, 0); from < requests.length;
                from = firstIncomplete(requests, from)) {
            idle = progressAll(requests) > 0 ? 0 : idleStep(idle);
        }
        return finishAll(requests);
    }

    /** As {@link #waitAllStatus} without the statuses: one pass per progress step, nothing made. */
    public static void waitAll(Request[] requests) throws MPIException {
        MPI.check();
        int idle = 0;
        for (int from = firstIncomplete(requests, 0); from < requests.length;
                from = firstIncomplete(requests, from)) {
            idle = progressAll(requests) > 0 ? 0 : idleStep(idle);
        }
        retireAll(requests);
    }

    /** Retires every active request; raises the first error (after retiring them all). */
    private static void retireAll(Request[] requests) throws MPIException {
        Request failed = null;
        RequestState failedState = null;
        for (Request q : requests) {
            if (q != null && q.impl != null) {
                RequestState r = q.impl;
                q.retire();
                if (r.error() != 0 && q.comm != null && failed == null) {
                    failed = q;
                    failedState = r;
                }
            }
        }
        if (failed != null) {
            throw failed.raise(new MpiError(failedState.error(), describeError(failedState)));
        }
    }

    private static boolean allComplete(Request[] requests) {
        return firstIncomplete(requests, 0) == requests.length;
    }

    /**
     * The index of the first active, incomplete request at or after {@code from}, or the
     * array's length. The wait loops resume from the index this returned last time (a completed
     * request stays complete until it is retired), so a window of n requests completing in order
     * costs n checks, not n*n/2 (issue 17: 64 iRecvs rescanned from the start on every progress
     * pass).
     */
    private static int firstIncomplete(Request[] requests, int from) {
        for (int i = from; i < requests.length; i++) {
            Request q = requests[i];
            if (q != null && q.active() && !q.impl.isComplete()) {
                return i;
            }
        }
        return requests.length;
    }

    private static Status[] finishAll(Request[] requests) throws MPIException {
        Status[] out = new Status[requests.length];
        MPIException first = null;
        for (int i = 0; i < requests.length; i++) {
            Request q = requests[i];
            if (q == null || !q.active()) {
                out[i] = emptyStatus();
                continue;
            }
            try {
                out[i] = q.finish(q.impl);
            } catch (MPIException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    /** The statuses of all requests if every one has completed, else null (MPI_Testall). */
    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        MPI.check();
        if (!allComplete(requests)) {
            progressAll(requests);
            if (!allComplete(requests)) {
                return null;
            }
        }
        return finishAll(requests);
    }

    /** True if every request has completed (MPI_Testall). */
    public static boolean testAll(Request[] requests) throws MPIException {
        MPI.check();
        if (!allComplete(requests)) {
            progressAll(requests);
            if (!allComplete(requests)) {
                return false;
            }
        }
        retireAll(requests);
        return true;
    }

    /** Waits until at least one request has completed; returns their statuses (MPI_Waitsome). */
    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        MPI.check();
        if (!anyActive(requests)) {
            return null;
        }
        int idle = 0;
        while (firstComplete(requests) < 0) {
            idle = progressAll(requests) > 0 ? 0 : idleStep(idle);
        }
        return collectSome(requests);
    }

    private static Status[] collectSome(Request[] requests) throws MPIException {
        java.util.List<Status> done = new java.util.ArrayList<>();
        for (int i = 0; i < requests.length; i++) {
            Request q = requests[i];
            if (q != null && q.active() && q.impl.isComplete()) {
                done.add(q.finish(q.impl).withIndex(i));
            }
        }
        return done.toArray(new Status[0]);
    }

    private static int[] indices(Status[] s) {
        if (s == null) {
            return null;
        }
        int[] out = new int[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = s[i].getIndex();
        }
        return out;
    }

    /**
     * Waits until at least one request has completed; returns the indices of those that have
     * (MPI_Waitsome).
     */
    public static int[] waitSome(Request[] requests) throws MPIException {
        return indices(waitSomeStatus(requests));
    }

    /** The statuses of the requests that have completed, possibly none (MPI_Testsome). */
    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        MPI.check();
        if (!anyActive(requests)) {
            return null;
        }
        progressAll(requests);
        return collectSome(requests);
    }

    /** The indices of the requests that have completed, possibly none (MPI_Testsome). */
    public static int[] testSome(Request[] requests) throws MPIException {
        return indices(testSomeStatus(requests));
    }
}
