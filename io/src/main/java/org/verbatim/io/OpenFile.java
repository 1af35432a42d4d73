package org.verbatim.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.verbatim.datatype.CommittedType;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.io.Access;
import org.verbatim.runtime.io.FileGroup;
import org.verbatim.runtime.io.IoBuffer;
import org.verbatim.runtime.io.IoFile;

/**
 * One open file: its channel, view, individual pointer, shared pointer and hints. Independent
 * accesses go straight to the channel extent by extent; collective ones through
 * {@link TwoPhase}; nonblocking ones as an {@link IoRequest} the progress engine advances.
 * Opening is {@link FileOpening}'s.
 */
final class OpenFile implements IoFile {
    /** Serialises this JVM's byte-range locks (a JVM refuses two overlapping ones). */
    private static final ReentrantLock JVM_RANGE_LOCK = new ReentrantLock();
    final IoExtension ext;
    final FileGroup group;
    final Path path;
    final int amode;
    final ChannelIo io;
    private final SharedPointer shared;
    IoSettings settings;
    private ViewMap view = ViewMap.bytes();
    private long pointer;
    private boolean atomic;
    private MemorySegment window;
    private MemorySegment sieve;

    OpenFile(IoExtension ext, FileGroup group, Path path, int amode, FileChannel channel,
             SharedPointer shared, IoSettings settings) {
        this.ext = ext;
        this.group = group;
        this.path = path;
        this.amode = amode;
        this.io = new ChannelIo(channel, path.toString());
        this.shared = shared;
        this.settings = settings;
    }

    /** Sets both pointers to the end of file (MODE_APPEND), collectively. */
    void toEnd() {
        long size = size();
        pointer = size;
        rankZero(() -> {
            if (size > 0) {
                shared.set(size);
            }
        });
    }

    @Override
    public long size() {
        try {
            return io.channel().size();
        } catch (IOException e) {
            throw FileErrors.of(io.path(), e);
        }
    }

    @Override
    public void setSize(long bytes) {
        group.barrier();
        rankZero(() -> {
            long now = io.channel().size();
            if (bytes < now) {
                io.channel().truncate(bytes);
            } else if (bytes > now) {
                extendTo(bytes);
            }
        });
    }

    @Override
    public void preallocate(long bytes) {
        group.barrier();
        rankZero(() -> {
            if (bytes > io.channel().size()) {
                extendTo(bytes);
            }
        });
    }

    private void extendTo(long bytes) throws IOException {
        io.write(bytes - 1, MemorySegment.ofArray(new byte[1]), 0, 1);
    }

    @Override
    public void setView(long disp, CommittedType etype, CommittedType filetype,
                        Map<String, String> info) {
        ViewMap v = ViewMap.of(disp, etype, filetype);
        applyHints(info);
        group.barrier();
        view = v;
        pointer = 0;
        rankZero(() -> shared.set(0));
    }

    // ------------------------------------------------------------------ data access

    @Override
    public long transfer(boolean write, Access access, long offset, IoBuffer buf,
                         boolean collective) {
        long esize = view.etypeSize;
        long etypes = buf.bytes() / esize;
        return switch (access) {
            case EXPLICIT -> move(write, offset * esize, buf, collective);
            case INDIVIDUAL -> {
                long moved = move(write, pointer * esize, buf, collective);
                pointer += moved / esize;
                yield moved;
            }
            case SHARED -> move(write, fetchShared(etypes) * esize, buf, false);
            case ORDERED -> {
                long[] all = group.allgather(new long[] {etypes});
                long before = 0;
                long total = 0;
                for (int r = 0; r < all.length; r++) {
                    before += r < group.rank() ? all[r] : 0;
                    total += all[r];
                }
                long[] start = {group.rank() == 0 ? fetchShared(total) : 0};
                long first = group.allgather(start)[0];
                yield move(write, (first + before) * esize, buf, true);
            }
        };
    }

    @Override
    public RequestState start(boolean write, Access access, long offset, IoBuffer buf) {
        long esize = view.etypeSize;
        long etypes = buf.bytes() / esize;
        long at = switch (access) {
            case EXPLICIT -> offset;
            case INDIVIDUAL -> {
                long p = pointer;
                pointer += etypes;
                yield p;
            }
            case SHARED -> fetchShared(etypes);
            case ORDERED -> throw new MpiError(ErrorClass.ERR_INTERN, "no nonblocking ordered");
        };
        Extents ex = new Extents();
        view.extents(at * esize, buf.bytes(), ex);
        IoRequest r = new IoRequest(this, write, ex, Transfer.of(write, buf));
        ext.addPoller(r);
        return r;
    }

    private long move(boolean write, long start, IoBuffer buf, boolean collective) {
        Extents ex = new Extents();
        view.extents(start, buf.bytes(), ex);
        Transfer t = Transfer.of(write, buf);
        long moved = collective ? TwoPhase.run(this, write, ex, t) : independent(write, ex, t);
        if (!write) {
            t.finishRead(moved);
        }
        return moved;
    }

    /** This process's extents, straight to the channel (under a range lock in atomic mode). */
    long independent(boolean write, Extents ex, Transfer t) {
        if (ex.count() == 0) {
            return 0;
        }
        try (RangeLock lock = atomic ? lock(ex.low(), ex.high(), !write) : null) {
            if (!write && ex.count() > 1) {
                return SieveRead.read(io, ex, t, sieve());
            }
            long moved = 0;
            for (int i = 0; i < ex.count(); i++) {
                long at = t.dataOffset + ex.dataAt(i);
                if (write) {
                    io.write(ex.offset(i), t.data, at, ex.length(i));
                    moved += ex.length(i);
                } else {
                    long got = io.read(ex.offset(i), t.data, at, ex.length(i));
                    moved += got;
                    if (got < ex.length(i)) {
                        break;
                    }
                }
            }
            return moved;
        } catch (IOException e) {
            throw FileErrors.of(io.path(), e);
        }
    }

    /** A byte-range lock of the file (exclusive unless {@code sharedLock}). */
    RangeLock lock(long lo, long hi, boolean sharedLock) throws IOException {
        JVM_RANGE_LOCK.lock();
        try {
            return new RangeLock(io.channel().lock(lo, Math.max(1, hi - lo), sharedLock));
        } catch (IOException | RuntimeException e) {
            JVM_RANGE_LOCK.unlock();
            throw e;
        }
    }

    /** A held byte-range lock; closing releases it. */
    record RangeLock(FileLock lock) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                lock.release();
            } finally {
                JVM_RANGE_LOCK.unlock();
            }
        }
    }

    boolean atomic() {
        return atomic;
    }

    /** The data-sieving buffer of independent reads (native, reused). */
    private MemorySegment sieve() {
        if (sieve == null) {
            sieve = Arena.ofAuto().allocate(SieveRead.BUFFER, 4096);
        }
        return sieve;
    }

    /** The aggregator's buffer of {@code bytes} (native, reused). */
    MemorySegment window(long bytes) {
        if (window == null || window.byteSize() < bytes) {
            window = Arena.ofAuto().allocate(bytes, 4096);
        }
        return window;
    }

    // ------------------------------------------------------------------ pointers

    private long fetchShared(long etypes) {
        try {
            return shared.fetchAndAdd(etypes);
        } catch (IOException e) {
            throw FileErrors.of(shared.path().toString(), e);
        }
    }

    @Override
    public void seek(long offset, Whence whence) {
        pointer = resolve(offset, whence, pointer);
    }

    private long resolve(long offset, Whence whence, long current) {
        long to = switch (whence) {
            case SET -> offset;
            case CUR -> current + offset;
            case END -> view.dataBefore(size()) / view.etypeSize + offset;
        };
        if (to < 0) {
            throw new MpiError(ErrorClass.ERR_ARG, "seek to a negative offset " + to);
        }
        return to;
    }

    @Override
    public long position() {
        return pointer;
    }

    @Override
    public long byteOffset(long offset) {
        return view.fileOffset(offset * view.etypeSize);
    }

    @Override
    public void seekShared(long offset, Whence whence) {
        group.barrier();
        long to = resolve(offset, whence, positionShared());
        group.barrier();
        rankZero(() -> shared.set(to));
    }

    @Override
    public long positionShared() {
        try {
            return shared.get();
        } catch (IOException e) {
            throw FileErrors.of(shared.path().toString(), e);
        }
    }

    // ------------------------------------------------------------------ consistency, hints

    @Override
    public void setAtomicity(boolean atomic) {
        group.barrier();
        this.atomic = atomic;
    }

    @Override
    public boolean atomicity() {
        return atomic;
    }

    @Override
    public void sync() {
        try {
            io.channel().force(true);
        } catch (IOException e) {
            throw FileErrors.of(io.path(), e);
        }
        group.barrier();
    }

    @Override
    public void setInfo(Map<String, String> info) {
        applyHints(info);
        group.barrier();
    }

    private void applyHints(Map<String, String> info) {
        if (!info.isEmpty()) {
            settings = settings.with(info);
        }
    }

    @Override
    public Map<String, String> info() {
        return settings.hints(group.size());
    }

    @Override
    public void close() {
        group.barrier();
        try {
            io.channel().close();
            shared.close();
        } catch (IOException e) {
            throw FileErrors.of(io.path(), e);
        } finally {
            group.barrier();
        }
        rankZero(() -> {
            shared.delete();
            if (Amode.has(amode, Amode.DELETE_ON_CLOSE)) {
                Files.deleteIfExists(path);
            }
        });
    }

    // ------------------------------------------------------------------ helpers

    interface FileWork {
        void run() throws IOException;
    }

    /** Runs {@code work} on rank 0; every member gets its outcome (collective). */
    void rankZero(FileWork work) {
        long[] mine = {0};
        MpiError failure = null;
        if (group.rank() == 0) {
            try {
                work.run();
            } catch (IOException e) {
                failure = FileErrors.of(io.path(), e);
                mine[0] = failure.errorClass();
            } catch (MpiError e) {
                failure = e;
                mine[0] = e.errorClass();
            }
        }
        long cls = group.allgather(mine)[0];
        if (failure != null) {
            throw failure;
        }
        if (cls != 0) {
            throw new MpiError((int) cls, io.path() + ": " + ErrorClass.describe((int) cls)
                    + " (on rank 0)");
        }
    }
}
