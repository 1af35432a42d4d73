package org.verbatim.transport.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.spi.SharedSegments;

/**
 * shm's {@link SharedSegments}: window memory that same-host ranks map together.
 *
 * <p>Create: {@code open(<dir>/verbatim-<job>-<rank>-seg-<n>, O_CREAT | O_EXCL, 0600)}, unlink at
 * once (before it is even mapped: no name is ever left behind, whatever happens next), size with
 * ftruncate, map through {@code /proc/self/fd/<fd>}. The creator keeps the descriptor open while
 * the segment lives; that descriptor is how peers reach the file:
 * {@code handle = shm1:<rank>:<pid>:<fd>:<size>:<inode>:<base address>}. Attach opens
 * {@code /proc/<pid>/fd/<fd>} (same user: the kernel's ptrace read check), or, where that is
 * refused, fetches the descriptor with pidfd_open + pidfd_getfd; it checks the inode so that a
 * reused descriptor number is not mistaken for the segment and that the file is private to this
 * user (as inbox files are, {@link InboxFile#checkPrivate}), maps, and closes its descriptor.
 *
 * <p>Registrations: {@link ShmTransport#register} asks {@link #contains} whether the memory lies
 * inside a segment mapped here (created or attached); if so the remote key carries the shared bit
 * ({@link RemoteKeys}). An initiator that attached the segment its target created, and gets such a
 * key, finds its own mapping of the target's word with {@link #localWord} and runs atomics on it
 * directly. Memory that the target registered in a segment it only attached goes the emulated way
 * (the initiator does not know that mapping's address in the target).
 */
final class ShmSharedSegments implements SharedSegments {
    private static final String PREFIX = "shm1";

    private final ShmTransport transport;
    private final int rank;
    private final String directory;
    private final String jobId;
    private final long pid = ProcessHandle.current().pid();
    private final MemorySegment errno;
    private final List<Mapping> mappings = new ArrayList<>();
    /** A copy of {@link #mappings} for lookups without the lock (replaced on every change). */
    private volatile Mapping[] snapshot = new Mapping[0];
    private int serial;

    ShmSharedSegments(ShmTransport transport, int rank, String directory, String jobId,
                      MemorySegment errno) {
        this.transport = transport;
        this.rank = rank;
        this.directory = directory;
        this.jobId = jobId;
        this.errno = errno;
    }

    @Override
    public synchronized Segment create(long byteSize) {
        if (byteSize <= 0) {
            throw new IllegalArgumentException("segment size must be positive: " + byteSize);
        }
        Path path = Path.of(directory, "verbatim-" + jobId + "-" + rank + "-seg-" + serial++);
        int fd = FileDescriptors.open(errno, path.toString(),
                FileDescriptors.O_RDWR | FileDescriptors.O_CREAT | FileDescriptors.O_EXCL
                        | FileDescriptors.O_CLOEXEC, 0600);
        if (fd < 0) {
            throw new IllegalStateException("cannot create " + path + ": "
                    + LinuxSyscalls.describe(LinuxSyscalls.errno(errno)));
        }
        try {
            Files.deleteIfExists(path);
            if (FileDescriptors.ftruncate(errno, fd, byteSize) != 0) {
                throw new IllegalStateException("cannot size a shared segment to " + byteSize
                        + " bytes: " + LinuxSyscalls.describe(LinuxSyscalls.errno(errno)));
            }
            Path self = Path.of("/proc/self/fd/" + fd);
            long inode = inode(self);
            Arena arena = Arena.ofShared();
            MemorySegment memory = map(self, byteSize, arena);
            String handle = String.join(":", PREFIX, Integer.toString(rank), Long.toString(pid),
                    Integer.toString(fd), Long.toString(byteSize), Long.toString(inode),
                    Long.toString(memory.address()));
            Mapping mapping = new Mapping(this, memory, arena, handle, fd, rank, memory.address());
            mappings.add(mapping);
            snapshot = mappings.toArray(new Mapping[0]);
            return mapping;
        } catch (IOException | RuntimeException e) {
            FileDescriptors.close(errno, fd);
            throw e instanceof RuntimeException r ? r
                    : new IllegalStateException("cannot map a shared segment: " + e, e);
        }
    }

    @Override
    public boolean attachable(String handle) {
        try {
            int creator = Integer.parseInt(parse(handle)[1]);
            return creator == rank || transport.reaches(creator);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public synchronized Segment attach(String handle) {
        String[] f = parse(handle);
        int creator = Integer.parseInt(f[1]);
        int creatorPid = Integer.parseInt(f[2]);
        int fd = Integer.parseInt(f[3]);
        long size = Long.parseLong(f[4]);
        long inode = Long.parseLong(f[5]);
        long creatorBase = Long.parseLong(f[6]);
        if (creator != rank && !transport.reaches(creator)) {
            throw new IllegalArgumentException("segment of rank " + creator
                    + ", which is not on this host: " + handle);
        }
        Path path = Path.of("/proc/" + creatorPid + "/fd/" + fd);
        int fetched = -1;
        try {
            if (!Files.isReadable(path)) {
                fetched = FileDescriptors.fetch(errno, creatorPid, fd);
                if (fetched < 0) {
                    throw new IllegalStateException("cannot reach segment " + handle + ": "
                            + LinuxSyscalls.describe(-fetched));
                }
                path = Path.of("/proc/self/fd/" + fetched);
            }
            if (inode(path) != inode) {
                throw new IllegalStateException("segment " + handle + " is gone");
            }
            InboxFile.checkPrivate("segment " + handle, path);
            Arena arena = Arena.ofShared();
            MemorySegment memory = map(path, size, arena);
            Mapping mapping = new Mapping(this, memory, arena, handle, -1, creator, creatorBase);
            mappings.add(mapping);
            snapshot = mappings.toArray(new Mapping[0]);
            return mapping;
        } catch (IOException e) {
            throw new IllegalStateException("cannot attach segment " + handle + ": " + e, e);
        } finally {
            if (fetched >= 0) {
                FileDescriptors.close(errno, fetched);
            }
        }
    }

    /** True when {@code memory} lies inside a segment mapped here. */
    boolean contains(MemorySegment memory) {
        for (Mapping m : snapshot) {
            long offset = memory.address() - m.memory.address();
            if (offset >= 0 && offset <= m.memory.byteSize() - memory.byteSize()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs an atomic on the word at {@code address} in rank {@code creator} through this process's
     * own mapping of it, for a segment that rank created and this rank attached, and puts the old
     * value into {@code result}. False (nothing done) when there is no such mapping.
     */
    boolean applyAtomic(int creator, long address, int opcode, long operand, long swap,
                        MemorySegment result) {
        for (Mapping m : snapshot) {
            if (m.creatorRank == creator && m.fd < 0) {
                long offset = address - m.creatorBase;
                if (offset >= 0 && offset <= m.memory.byteSize() - 8) {
                    ShmAtomics.deliver(result, ShmAtomics.apply(m.memory, offset, opcode, operand,
                            swap));
                    return true;
                }
            }
        }
        return false;
    }

    /** Unmaps every segment (the transport is closing). */
    synchronized void closeAll() {
        for (Mapping m : List.copyOf(mappings)) {
            m.close();
        }
    }

    private synchronized void closed(Mapping mapping) {
        mappings.remove(mapping);
        snapshot = mappings.toArray(new Mapping[0]);
        if (mapping.fd >= 0) {
            FileDescriptors.close(errno, mapping.fd);
        }
        mapping.arena.close();
    }

    private static String[] parse(String handle) {
        String[] f = handle.split(":");
        if (f.length != 7 || !PREFIX.equals(f[0])) {
            throw new IllegalArgumentException("not a shm segment handle: " + handle);
        }
        return f;
    }

    private static long inode(Path path) throws IOException {
        return ((Number) Files.getAttribute(path, "unix:ino")).longValue();
    }

    private static MemorySegment map(Path path, long size, Arena arena) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            if (channel.size() != size) {
                throw new IOException(path + " has " + channel.size() + " bytes, not " + size);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** One mapping; the creator's holds the descriptor peers attach through. */
    private static final class Mapping implements Segment {
        private final ShmSharedSegments owner;
        private final MemorySegment memory;
        private final Arena arena;
        private final String handle;
        private final int fd;
        private final int creatorRank;
        private final long creatorBase;
        private boolean closed;

        Mapping(ShmSharedSegments owner, MemorySegment memory, Arena arena, String handle, int fd,
                int creatorRank, long creatorBase) {
            this.owner = owner;
            this.memory = memory;
            this.arena = arena;
            this.handle = handle;
            this.fd = fd;
            this.creatorRank = creatorRank;
            this.creatorBase = creatorBase;
        }

        @Override
        public MemorySegment memory() {
            return memory;
        }

        @Override
        public String handle() {
            return handle;
        }

        @Override
        public boolean creator() {
            return fd >= 0;
        }

        @Override
        public void close() {
            synchronized (owner) {
                if (!closed) {
                    closed = true;
                    owner.closed(this);
                }
            }
        }
    }
}
