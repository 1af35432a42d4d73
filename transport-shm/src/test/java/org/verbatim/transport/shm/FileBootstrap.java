package org.verbatim.transport.shm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.verbatim.bootstrap.Bootstrap;

/** A bootstrap through files in a directory, for tests with ranks in several processes. */
final class FileBootstrap implements Bootstrap {
    private final Path directory;
    private final String jobId;
    private final int rank;
    private final int size;
    private int generation;

    FileBootstrap(Path directory, String jobId, int rank, int size) {
        this.directory = directory;
        this.jobId = jobId;
        this.rank = rank;
        this.size = size;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public void put(String key, String value) {
        try {
            Path tmp = directory.resolve("tmp-" + rank + "-" + key);
            Files.writeString(tmp, value);
            Files.move(tmp, directory.resolve("kv-" + key), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String get(String key) {
        Path path = directory.resolve("kv-" + key);
        try {
            return Files.exists(path) ? Files.readString(path, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void barrier() {
        generation++;
        try {
            Files.createFile(directory.resolve("barrier-" + generation + "-" + rank));
            long deadline = System.nanoTime() + 60_000_000_000L;
            for (int r = 0; r < size; r++) {
                while (!Files.exists(directory.resolve("barrier-" + generation + "-" + r))) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("file barrier " + generation + " timed out");
                    }
                    Thread.sleep(2);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void abort(int code, String message) {
        throw new IllegalStateException("abort " + code + ": " + message);
    }

    @Override
    public void close() {
    }
}
