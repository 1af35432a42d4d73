package org.verbatim.transport.shm;

import static org.verbatim.transport.shm.InboxDescriptor.CAPACITY_OFFSET;
import static org.verbatim.transport.shm.InboxDescriptor.MAGIC;
import static org.verbatim.transport.shm.InboxDescriptor.MAGIC_OFFSET;
import static org.verbatim.transport.shm.InboxDescriptor.MAX_RECORD_OFFSET;
import static org.verbatim.transport.shm.InboxDescriptor.PID_OFFSET;
import static org.verbatim.transport.shm.InboxDescriptor.PROBE_MAGIC;
import static org.verbatim.transport.shm.InboxDescriptor.PROBE_OFFSET;
import static org.verbatim.transport.shm.InboxDescriptor.VERSION;
import static org.verbatim.transport.shm.InboxDescriptor.VERSION_OFFSET;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Creating, mapping and unlinking inbox files, named {@code verbatim-<jobid>-<rank>}.
 *
 * <p>Lifetime: a rank creates its own file, every same-host peer maps it, a bootstrap barrier
 * confirms that all have, and then every rank unlinks the files of its host at once (its own and
 * its peers', so a file goes even if its owner dies right after the barrier). From then on the
 * memory lives only as long as some process maps it, so a job that ends any way at all, SIGKILL
 * included, leaves no file behind. Only a job that fails during open, between creating and the
 * second barrier, can leave one; a rank whose open fails removes its own, and the process manager
 * can sweep {@code verbatim-<jobid>-*} when the job ends.
 */
final class InboxFile {
    private InboxFile() {
    }

    static Path path(String directory, String jobId, int rank) {
        return Path.of(directory, "verbatim-" + jobId + "-" + rank);
    }

    /** Creates (exclusively) and maps a new inbox file, with its metadata written. */
    static MemorySegment create(Path path, int capacity, int maxRecordLength, long pid, Arena arena)
            throws IOException {
        long size = InboxDescriptor.fileSize(capacity);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            channel.truncate(size);
            channel.position(size - 1);
            channel.write(java.nio.ByteBuffer.allocate(1));
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            file.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
            file.set(ValueLayout.JAVA_INT, CAPACITY_OFFSET, capacity);
            file.set(ValueLayout.JAVA_LONG, PID_OFFSET, pid);
            file.set(ValueLayout.JAVA_INT, MAX_RECORD_OFFSET, maxRecordLength);
            file.set(ValueLayout.JAVA_LONG, PROBE_OFFSET, PROBE_MAGIC);
            VarHandle.releaseFence();
            file.set(ValueLayout.JAVA_LONG, MAGIC_OFFSET, MAGIC);
            return file;
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /** Maps a peer's inbox file and checks its metadata against ours. */
    static MemorySegment map(Path path, int capacity, int maxRecordLength, Arena arena)
            throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            long size = channel.size();
            if (size != InboxDescriptor.fileSize(capacity)) {
                throw new IOException(path + ": size " + size + ", expected "
                        + InboxDescriptor.fileSize(capacity)
                        + " (is verbatim.shm.inbox-size the same on every rank?)");
            }
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            VarHandle.acquireFence();
            if (file.get(ValueLayout.JAVA_LONG, MAGIC_OFFSET) != MAGIC
                    || file.get(ValueLayout.JAVA_INT, VERSION_OFFSET) != VERSION) {
                throw new IOException(path + ": not a Verbatim inbox of version " + VERSION);
            }
            if (file.get(ValueLayout.JAVA_INT, MAX_RECORD_OFFSET) != maxRecordLength) {
                throw new IOException(path + ": record size differs (is verbatim.shm.eager-size "
                        + "the same on every rank?)");
            }
            return file;
        }
    }
}
