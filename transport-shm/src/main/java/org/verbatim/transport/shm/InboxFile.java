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
import java.nio.file.attribute.PosixFilePermissions;

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
 *
 * <p>Privacy: message payloads pass through these files, so they are created with mode 0600
 * ({@code open(O_CREAT | O_EXCL, 0600)}; the umask can only take bits away) and no other user can
 * open one while it has a name. A peer's file is opened first and then checked through
 * {@code /proc/self/fd/<fd>}, which is the opened file itself whatever the name pointed to by then:
 * it must belong to this process's user and be closed to group and others, else the rank refuses
 * it (a file planted under a job's name by another local user).
 */
final class InboxFile {
    private static final String PRIVATE = "rw-------";

    private InboxFile() {
    }

    static Path path(String directory, String jobId, int rank) {
        return Path.of(directory, "verbatim-" + jobId + "-" + rank);
    }

    /** A created inbox: its mapping and the descriptor its owner keeps open for peers of other worlds. */
    record Created(MemorySegment file, int fd) {
    }

    /**
     * Creates (exclusively, mode 0600) and maps a new inbox file, with its metadata written. The
     * descriptor stays open (the caller closes it): once the name is unlinked, processes of other
     * worlds reach the file through {@code /proc/<pid>/fd/<fd>} ({@link ForeignInboxes}).
     */
    static Created create(Path path, int capacity, int maxRecordLength, long pid, Arena arena)
            throws IOException {
        long size = InboxDescriptor.fileSize(capacity);
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment errno = LinuxSyscalls.allocateErrno(scratch);
            int fd = FileDescriptors.open(errno, path.toString(), FileDescriptors.O_RDWR
                    | FileDescriptors.O_CREAT | FileDescriptors.O_EXCL | FileDescriptors.O_CLOEXEC, 0600);
            if (fd < 0) {
                throw new IOException("cannot create " + path + ": "
                        + LinuxSyscalls.describe(LinuxSyscalls.errno(errno)));
            }
            try {
                if (FileDescriptors.ftruncate(errno, fd, size) != 0) {
                    throw new IOException("cannot size " + path + " to " + size + " bytes: "
                            + LinuxSyscalls.describe(LinuxSyscalls.errno(errno)));
                }
                MemorySegment file = mapOpened(fd, size, arena);
                file.set(ValueLayout.JAVA_INT, VERSION_OFFSET, VERSION);
                file.set(ValueLayout.JAVA_INT, CAPACITY_OFFSET, capacity);
                file.set(ValueLayout.JAVA_LONG, PID_OFFSET, pid);
                file.set(ValueLayout.JAVA_INT, MAX_RECORD_OFFSET, maxRecordLength);
                file.set(ValueLayout.JAVA_LONG, PROBE_OFFSET, PROBE_MAGIC);
                VarHandle.releaseFence();
                file.set(ValueLayout.JAVA_LONG, MAGIC_OFFSET, MAGIC);
                return new Created(file, fd);
            } catch (IOException | RuntimeException e) {
                FileDescriptors.close(errno, fd);
                Files.deleteIfExists(path);
                throw e;
            }
        }
    }

    /**
     * Maps a peer's inbox file after checking that it is private to this user, and checks its
     * metadata against ours.
     */
    static MemorySegment map(Path path, int capacity, int maxRecordLength, Arena arena)
            throws IOException {
        return map(path.toString(), path.toString(), capacity, maxRecordLength, -1, arena);
    }

    /**
     * Maps the inbox file at {@code openPath} (named {@code name} in messages) after the checks
     * of {@link #map(Path, int, int, Arena)}; {@code capacity} -1 takes the file's own, {@code
     * ownerPid} -1 accepts any owner, else the file must say that process made it.
     */
    static MemorySegment map(String openPath, String name, int capacity, int maxRecordLength, long ownerPid,
                             Arena arena) throws IOException {
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment errno = LinuxSyscalls.allocateErrno(scratch);
            int fd = FileDescriptors.open(errno, openPath,
                    FileDescriptors.O_RDWR | FileDescriptors.O_CLOEXEC, 0);
            if (fd < 0) {
                throw new IOException("cannot open " + name + ": "
                        + LinuxSyscalls.describe(LinuxSyscalls.errno(errno)));
            }
            try {
                checkPrivate(name, Path.of("/proc/self/fd/" + fd));
                long size = Files.size(Path.of("/proc/self/fd/" + fd));
                if (capacity >= 0 && size != InboxDescriptor.fileSize(capacity)) {
                    throw new IOException(name + ": size " + size + ", expected "
                            + InboxDescriptor.fileSize(capacity)
                            + " (is verbatim.shm.inbox-size the same on every rank?)");
                }
                if (size < InboxDescriptor.RING_OFFSET) {
                    throw new IOException(name + ": " + size + " bytes, too short for an inbox");
                }
                MemorySegment file = mapOpened(fd, size, arena);
                VarHandle.acquireFence();
                if (file.get(ValueLayout.JAVA_LONG, MAGIC_OFFSET) != MAGIC
                        || file.get(ValueLayout.JAVA_INT, VERSION_OFFSET) != VERSION) {
                    throw new IOException(name + ": not a Verbatim inbox of version " + VERSION);
                }
                if (file.get(ValueLayout.JAVA_INT, MAX_RECORD_OFFSET) != maxRecordLength) {
                    throw new IOException(name + ": record size differs (is verbatim.shm.eager-size "
                            + "the same on every rank?)");
                }
                if (size != InboxDescriptor.fileSize(file.get(ValueLayout.JAVA_INT, CAPACITY_OFFSET))) {
                    throw new IOException(name + ": its size does not match its ring capacity");
                }
                if (ownerPid >= 0 && file.get(ValueLayout.JAVA_LONG, PID_OFFSET) != ownerPid) {
                    throw new IOException(name + ": made by process " + file.get(ValueLayout.JAVA_LONG,
                            PID_OFFSET) + ", not by " + ownerPid);
                }
                return file;
            } finally {
                FileDescriptors.close(errno, fd);
            }
        }
    }

    /**
     * Refuses a file (seen through {@code opened}, an open descriptor's /proc link) that another
     * user owns or that group or others may access.
     */
    static void checkPrivate(String name, Path opened) throws IOException {
        int owner = ((Number) Files.getAttribute(opened, "unix:uid")).intValue();
        int self = ProcessUser.uid();
        if (owner != self) {
            throw new IOException(name + " belongs to user " + ProcessUser.describe(owner)
                    + ", not to this job's user " + ProcessUser.describe(self)
                    + "; refusing to map it (another local user created a file under this job's name?)");
        }
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(opened));
        if (!mode.startsWith("rw-") || !mode.endsWith("------")) {
            throw new IOException(name + " has mode " + mode + ", not " + PRIVATE
                    + "; refusing to map a shared-memory file that other users may open");
        }
    }

    private static MemorySegment mapOpened(int fd, long size, Arena arena) throws IOException {
        try (FileChannel channel = FileChannel.open(Path.of("/proc/self/fd/" + fd),
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        }
    }
}
