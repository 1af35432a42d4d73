package org.verbatim.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;

/** Maps what the file system says to the MPI error classes of MPI-3.1 13.7. */
final class FileErrors {
    private FileErrors() {
    }

    static MpiError of(String path, IOException e) {
        return new MpiError(errorClass(e), path + ": " + describe(e), e);
    }

    static int errorClass(IOException e) {
        String reason = e instanceof FileSystemException f && f.getReason() != null
                ? f.getReason().toLowerCase(Locale.ROOT) : String.valueOf(e.getMessage())
                .toLowerCase(Locale.ROOT);
        if (e instanceof NoSuchFileException) {
            return ErrorClass.ERR_NO_SUCH_FILE;
        } else if (e instanceof FileAlreadyExistsException) {
            return ErrorClass.ERR_FILE_EXISTS;
        } else if (reason.contains("read-only file system")) {
            return ErrorClass.ERR_READ_ONLY;
        } else if (e instanceof AccessDeniedException || reason.contains("permission denied")) {
            return ErrorClass.ERR_ACCESS;
        } else if (reason.contains("no space left")) {
            return ErrorClass.ERR_NO_SPACE;
        } else if (reason.contains("quota")) {
            return ErrorClass.ERR_QUOTA;
        } else if (reason.contains("is a directory") || reason.contains("not a directory")
                || reason.contains("name too long")) {
            return ErrorClass.ERR_BAD_FILE;
        }
        return ErrorClass.ERR_IO;
    }

    private static String describe(IOException e) {
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
