package mpi;

import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;

/** A nonblocking file operation's request: its errors go to the file's error handler. */
final class FileRequest extends Request {
    private final File file;

    FileRequest(RequestState impl, File file, Comm comm, String call, Object buffer) {
        super(impl, comm, call);
        this.file = file;
        this.keepAlive = buffer;
    }

    @Override
    MPIException raise(MpiError e) {
        return file.raise(call, e.errorClass(), e.getMessage());
    }
}
