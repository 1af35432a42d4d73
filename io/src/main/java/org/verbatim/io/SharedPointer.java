package org.verbatim.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The shared file pointer of one open file (in etypes): an 8-byte counter in a small file beside
 * it ({@code .<name>.<id>.shfp}, as ROMIO keeps its own), read and updated under an exclusive
 * POSIX byte-range lock, so every process of the file's group (on any host that shares the file
 * system's locks) fetches and adds atomically. The counter file is made on first use; a missing
 * or empty one reads as 0. Within one JVM the lock is also taken on a monitor, because a JVM
 * refuses a second overlapping lock of its own.
 */
final class SharedPointer {
    private static final Object JVM_LOCK = new Object();
    private final Path path;
    private FileChannel channel;
    private final ByteBuffer word = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder());

    SharedPointer(Path path) {
        this.path = path;
    }

    /** The counter file for {@code file}, named with the group's agreed {@code id}. */
    static Path beside(Path file, long id) {
        Path name = file.getFileName();
        Path dir = file.toAbsolutePath().getParent();
        return dir.resolve("." + name + "." + Long.toHexString(id) + ".shfp");
    }

    Path path() {
        return path;
    }

    /** Adds {@code delta} and returns the value before. */
    long fetchAndAdd(long delta) throws IOException {
        return update(delta, false, 0);
    }

    /** Sets the pointer to {@code value}. */
    void set(long value) throws IOException {
        if (value == 0 && channel == null && !Files.exists(path)) {
            return;
        }
        update(0, true, value);
    }

    long get() throws IOException {
        return update(0, false, 0);
    }

    private long update(long delta, boolean assign, long value) throws IOException {
        synchronized (JVM_LOCK) {
            FileChannel ch = channel();
            try (FileLock lock = ch.lock(0, 8, false)) {
                word.clear();
                int n = 0;
                while (word.hasRemaining()) {
                    int r = ch.read(word, n);
                    if (r < 0) {
                        break;
                    }
                    n += r;
                }
                long old = n == 8 ? word.getLong(0) : 0;
                long next = assign ? value : old + delta;
                if (next != old || n != 8) {
                    word.clear();
                    word.putLong(0, next);
                    while (word.hasRemaining()) {
                        ch.write(word, word.position());
                    }
                }
                return old;
            }
        }
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
        }
        return channel;
    }

    /** Closes this process's handle (the file stays for the others). */
    void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }

    /** Removes the counter file (one process, after every member closed). */
    void delete() throws IOException {
        Files.deleteIfExists(path);
    }
}
