package mpi;

import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;

/**
 * A nonblocking file operation's request: its errors go to the file's error handler. An
 * external32 read brings its staging copy into the caller's buffer when it completes.
 */
final class FileRequest extends Request {
    private final File file;
    /** An external32 transfer's staging copy (kept alive until done), or null. */
    private FileExternal32.Staged staged;

    FileRequest(RequestState impl, File file, Comm comm, String call, Object buffer,
                FileExternal32.Staged staged) {
        super(impl, comm, call);
        this.file = file;
        this.keepAlive = buffer;
        this.staged = staged;
    }

    @Override
    void retire() {
        RequestState r = impl;
        super.retire();
        FileExternal32.Staged s = staged;
        if (s != null && r != null) {
            staged = null;
            s.finish(r.bytes());
        }
    }

    @Override
    MPIException raise(MpiError e) {
        return file.raise(call, e.errorClass(), e.getMessage());
    }
}
