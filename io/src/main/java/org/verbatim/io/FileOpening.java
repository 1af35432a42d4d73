package org.verbatim.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.io.FileGroup;

/**
 * MPI_File_open in collective steps, so that every member gets the same outcome: the members
 * check they pass one access mode (MPI_ERR_NOT_SAME otherwise); rank 0 creates the file
 * (MODE_CREATE, MODE_EXCL) and draws the id of the shared pointer's file; then every member
 * opens its own channel, and if any failed, all fail with the first failure's class.
 */
final class FileOpening {
    private FileOpening() {
    }

    static OpenFile open(IoExtension ext, FileGroup group, String name, int amode,
                         Map<String, String> hints, IoSettings defaults) {
        IoSettings settings = defaults.with(hints);
        Path path;
        try {
            path = Path.of(name);
        } catch (InvalidPathException e) {
            throw new MpiError(ErrorClass.ERR_BAD_FILE, "bad file name " + name + ": "
                    + e.getMessage());
        }
        long[] modes = group.allgather(new long[] {amode});
        for (int r = 0; r < modes.length; r++) {
            if (modes[r] != amode) {
                throw new MpiError(ErrorClass.ERR_NOT_SAME, name + ": the members pass different "
                        + "access modes (" + amode + " here, " + modes[r] + " on rank " + r + ")");
            }
        }
        MpiError failure = null;
        long[] first = {0, ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE};
        if (group.rank() == 0 && Amode.has(amode, Amode.CREATE)) {
            try {
                if (Amode.has(amode, Amode.EXCL)) {
                    Files.createFile(path);
                } else if (!Files.exists(path)) {
                    try {
                        Files.createFile(path);
                    } catch (FileAlreadyExistsException raced) {
                        // made meanwhile by someone else: fine without MODE_EXCL
                    }
                }
            } catch (IOException e) {
                failure = FileErrors.of(name, e);
                first[0] = failure.errorClass();
            }
        }
        long[] fromZero = group.allgather(first);
        agree(name, failure, fromZero[0], 0);
        FileChannel channel = null;
        long[] mine = {0};
        try {
            channel = openChannel(path, amode);
        } catch (IOException e) {
            failure = FileErrors.of(name, e);
            mine[0] = failure.errorClass();
        }
        long[] all = group.allgather(mine);
        for (int r = 0; r < all.length; r++) {
            if (all[r] != 0) {
                closeQuietly(channel);
                agree(name, failure, all[r], r);
            }
        }
        SharedPointer shared = new SharedPointer(SharedPointer.beside(path, fromZero[1]));
        OpenFile f = new OpenFile(ext, group, path, amode, channel, shared, settings);
        if (Amode.has(amode, Amode.APPEND)) {
            f.toEnd();
        }
        return f;
    }

    private static void agree(String name, MpiError mine, long cls, int rank) {
        if (mine != null) {
            throw mine;
        }
        if (cls != 0) {
            throw new MpiError((int) cls, name + ": " + ErrorClass.describe((int) cls)
                    + " (on rank " + rank + ")");
        }
    }

    /**
     * The channel for {@code amode}: write-only files are opened for reading too where the
     * permissions let us (collective writes with holes read before they write).
     */
    private static FileChannel openChannel(Path path, int amode) throws IOException {
        if (Files.isDirectory(path)) {
            throw new java.nio.file.FileSystemException(path.toString(), null, "Is a directory");
        }
        Set<OpenOption> options = new java.util.HashSet<>();
        if (Amode.has(amode, Amode.CREATE)) {
            options.add(StandardOpenOption.CREATE);
        }
        if (Amode.has(amode, Amode.RDONLY)) {
            options.add(StandardOpenOption.READ);
            return FileChannel.open(path, options);
        }
        options.add(StandardOpenOption.WRITE);
        options.add(StandardOpenOption.READ);
        try {
            return FileChannel.open(path, options);
        } catch (java.nio.file.AccessDeniedException e) {
            if (Amode.has(amode, Amode.RDWR)) {
                throw e;
            }
            options.remove(StandardOpenOption.READ);
            return FileChannel.open(path, options);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the open failed elsewhere; this close changes nothing
            }
        }
    }
}
