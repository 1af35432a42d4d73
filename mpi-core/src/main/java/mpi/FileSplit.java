package mpi;

import java.nio.Buffer;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.io.Access;

/**
 * A file's split collective in progress (MPI-3.1 13.4.5: at most one per file). With a direct
 * buffer the begin call starts the transfer and the end call waits for it; otherwise the begin
 * call does the whole collective and the end call returns its status, as Open MPI's bindings do.
 */
final class FileSplit {
    private final File file;
    private String begun;
    private boolean write;
    private Access access;
    private Object buffer;
    private Request request;
    private Status status;

    FileSplit(File file) {
        this.file = file;
    }

    void begin(String call, boolean write, Access access, long offset, Object buf, int count,
               Datatype type) throws MPIException {
        file.run(call, () -> {
            file.impl(call);
            if (begun != null) {
                throw MPIException.of(ErrorClass.ERR_OTHER, "a split collective (" + begun
                        + ") is active on this file");
            }
        });
        Request r = null;
        Status s = null;
        if (access != Access.ORDERED && buf instanceof Buffer b && b.isDirect()) {
            r = file.start(call, write, access, offset, b, count, type);
        } else {
            s = file.io(call, write, access, offset, buf, count, type, true);
        }
        this.begun = call;
        this.write = write;
        this.access = access;
        this.buffer = buf;
        this.request = r;
        this.status = s;
    }

    Status end(String call, boolean write, Access access, Object buf) throws MPIException {
        file.run(call, () -> {
            file.impl(call);
            if (begun == null || this.write != write || this.access != access) {
                throw MPIException.of(ErrorClass.ERR_OTHER, "no matching split collective "
                        + "begun" + (begun == null ? "" : " (" + begun + " is active)"));
            }
            if (buf != buffer) {
                throw MPIException.of(ErrorClass.ERR_BUFFER, "not the buffer given to " + begun);
            }
        });
        Request r = request;
        Status s = status;
        forget();
        return r != null ? r.waitStatus() : s;
    }

    void forget() {
        begun = null;
        buffer = null;
        request = null;
        status = null;
    }
}
