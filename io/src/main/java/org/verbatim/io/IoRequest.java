package org.verbatim.io;

import java.io.IOException;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.ext.ExtensionContext;

/**
 * A nonblocking read or write: a request the progress engine advances (it is a poller), a
 * slice of at most {@link #SLICE} bytes per progress pass, so that I/O and communication
 * proceed together in any call that makes progress. In atomic mode the whole access is one
 * slice, under the file's byte-range lock. Completes with the bytes moved, or with the error
 * class of a failed transfer.
 */
final class IoRequest extends RequestState implements ExtensionContext.Poller {
    /** Bytes moved per progress pass. */
    static final long SLICE = 1 << 20;
    private final OpenFile file;
    private final boolean write;
    private final Extents extents;
    private final Transfer data;
    private int extent;
    private long inExtent;
    private long moved;

    IoRequest(OpenFile file, boolean write, Extents extents, Transfer data) {
        this.file = file;
        this.write = write;
        this.extents = extents;
        this.data = data;
    }

    @Override
    public int doWork() {
        if (isComplete()) {
            return -1;
        }
        try {
            if (file.atomic()) {
                moved = file.independent(write, extents, data);
                extent = extents.count();
            } else {
                slice();
            }
        } catch (MpiError e) {
            statusError = e.errorClass();
            extent = extents.count();
        }
        if (extent < extents.count()) {
            return 1;
        }
        if (!write && statusError == 0) {
            data.finishRead(moved);
        }
        statusBytes = moved;
        markComplete();
        return -1;
    }

    private void slice() {
        long budget = SLICE;
        try {
            while (budget > 0 && extent < extents.count()) {
                long n = Math.min(budget, extents.length(extent) - inExtent);
                long fileAt = extents.offset(extent) + inExtent;
                long at = data.dataOffset + extents.dataAt(extent) + inExtent;
                long got;
                if (write) {
                    file.io.write(fileAt, data.data, at, n);
                    got = n;
                } else {
                    got = file.io.read(fileAt, data.data, at, n);
                }
                moved += got;
                budget -= got;
                inExtent += got;
                if (got < n) {
                    extent = extents.count();
                    return;
                }
                if (inExtent == extents.length(extent)) {
                    extent++;
                    inExtent = 0;
                }
            }
        } catch (IOException e) {
            throw FileErrors.of(file.io.path(), e);
        }
    }
}
