package org.verbatim.launcher;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Removes the shared-memory files of a job: {@code /dev/shm/verbatim-<jobid>*}. */
final class ShmCleaner {
    static final Path SHM = Path.of("/dev/shm");

    private ShmCleaner() {
    }

    /** Deletes what the job left behind and returns the names removed. */
    static List<String> clean(Path dir, String jobId) {
        List<String> removed = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return removed;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "verbatim-" + jobId + "*")) {
            for (Path p : files) {
                try {
                    if (Files.deleteIfExists(p)) {
                        removed.add(p.getFileName().toString());
                    }
                } catch (IOException e) {
                    // another user's file or a race with the rank's own clean-up
                }
            }
        } catch (IOException e) {
            // /dev/shm unreadable: nothing we can remove
        }
        return removed;
    }
}
