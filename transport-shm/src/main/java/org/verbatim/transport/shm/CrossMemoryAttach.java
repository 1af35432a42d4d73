package org.verbatim.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.WorkList;

/**
 * Single-copy transfers between processes with Linux cross-memory attach
 * ({@code process_vm_readv}/{@code process_vm_writev}). The iovec arrays and the errno slot are
 * allocated once; a transfer allocates nothing. Not thread-safe: the transport is used by one
 * thread at a time.
 *
 * <p>A write goes out as one system call with two remote iovecs, the body and then its last byte,
 * so the last byte lands after all others (the kernel copies iovecs in order): a target that polls
 * the last byte of a buffer sees the whole buffer once it changes (IN_ORDER_PLACEMENT).
 *
 * <p>The kernel takes iovec lists on both sides, so a gather write or a scatter read is one call
 * with up to {@link #MAX_IOV} local entries, and a run of up to {@link #MAX_LIST} writes (or
 * reads) from a work list is one call with one local and two remote entries per write. A scatter
 * or gather list may be as long as the kernel's IOV_MAX (1024): the local side of a call costs
 * the kernel little per entry (a copy to or from the caller's own pages), so a vector of a
 * thousand blocks is one call; the remote side is what the kernel pins page range by page range,
 * and it stays one entry (two for a write).
 */
final class CrossMemoryAttach {
    /** Most entries of a gather or scatter list (put().maxIov, get().maxIov). */
    static final int MAX_IOV = 1024;
    /** Most requests of one list post (maxListPost). */
    static final int MAX_LIST = 64;

    private final MemorySegment errno;
    private final MemorySegment localIov;
    private final MemorySegment remoteIov;

    CrossMemoryAttach(Arena arena) {
        this.errno = LinuxSyscalls.allocateErrno(arena);
        this.localIov = arena.allocate(Math.max(MAX_IOV, MAX_LIST) * LinuxSyscalls.IOVEC_SIZE, 8);
        this.remoteIov = arena.allocate(2 * MAX_LIST * LinuxSyscalls.IOVEC_SIZE, 8);
    }

    /** Gathers {@code local}'s entries to {@code remoteAddress} in {@code pid}; 0 or an errno. */
    int writeGather(int pid, IoVector local, long remoteAddress) {
        final long length = local.totalLength();
        long done = 0;
        while (done < length) {
            final long left = length - done;
            final int localCount = fillLocal(local, done);
            long remoteCount = 1;
            if (left > 1) {
                LinuxSyscalls.setIovec(remoteIov, 0, remoteAddress + done, left - 1);
                LinuxSyscalls.setIovec(remoteIov, 1, remoteAddress + done + left - 1, 1);
                remoteCount = 2;
            } else {
                LinuxSyscalls.setIovec(remoteIov, 0, remoteAddress + done, left);
            }
            final long n = LinuxSyscalls.processVmWritev(errno, pid, localIov, localCount,
                    remoteIov, remoteCount);
            final int e = transferred(n);
            if (e > 0) {
                return e;
            }
            done += Math.max(n, 0);
        }
        return 0;
    }

    /** Scatters {@code remoteAddress} in {@code pid} into {@code local}'s entries; 0 or an errno. */
    int readScatter(int pid, IoVector local, long remoteAddress) {
        final long length = local.totalLength();
        long done = 0;
        while (done < length) {
            final int localCount = fillLocal(local, done);
            LinuxSyscalls.setIovec(remoteIov, 0, remoteAddress + done, length - done);
            final long n = LinuxSyscalls.processVmReadv(errno, pid, localIov, localCount,
                    remoteIov, 1);
            final int e = transferred(n);
            if (e > 0) {
                return e;
            }
            done += Math.max(n, 0);
        }
        return 0;
    }

    /**
     * Requests {@code from..from+count-1} of {@code list} (all writes, or all reads) in one call.
     * True when every byte moved; false when the kernel stopped short or refused, in which case
     * the caller posts them one by one to learn which failed (a write repeated is harmless).
     */
    boolean postRun(int pid, WorkList list, int from, int count, boolean write) {
        long total = 0;
        int remoteCount = 0;
        for (int i = 0; i < count; i++) {
            final MemorySegment local = list.local(from + i);
            final long length = local.byteSize();
            final long remote = list.remoteAddress(from + i);
            LinuxSyscalls.setIovec(localIov, i, local.address(), length);
            if (write && length > 1) {
                LinuxSyscalls.setIovec(remoteIov, remoteCount++, remote, length - 1);
                LinuxSyscalls.setIovec(remoteIov, remoteCount++, remote + length - 1, 1);
            } else if (length > 0) {
                LinuxSyscalls.setIovec(remoteIov, remoteCount++, remote, length);
            }
            total += length;
        }
        if (total == 0) {
            return true;
        }
        final long n = write
                ? LinuxSyscalls.processVmWritev(errno, pid, localIov, count, remoteIov, remoteCount)
                : LinuxSyscalls.processVmReadv(errno, pid, localIov, count, remoteIov, remoteCount);
        return n == total;
    }

    /** Local iovecs for {@code vector}'s byte stream from {@code skip} on; returns their count. */
    private int fillLocal(IoVector vector, long skip) {
        int count = 0;
        for (int i = 0; i < vector.count(); i++) {
            final long length = vector.length(i);
            if (skip >= length) {
                skip -= length;
                continue;
            }
            LinuxSyscalls.setIovec(localIov, count++, vector.address(i) + skip, length - skip);
            skip = 0;
        }
        return count;
    }

    /** 0 when {@code n} bytes moved, -1 to retry (EINTR), else the errno (EFAULT for none). */
    private int transferred(long n) {
        if (n < 0) {
            final int e = LinuxSyscalls.errno(errno);
            return e == LinuxSyscalls.EINTR ? -1 : e;
        }
        return n == 0 ? LinuxSyscalls.EFAULT : 0;
    }

    /** Copies {@code local} to {@code remoteAddress} in process {@code pid}; 0 or an errno. */
    int write(int pid, MemorySegment local, long remoteAddress) {
        final long length = local.byteSize();
        final long base = local.address();
        long done = 0;
        while (done < length) {
            final long left = length - done;
            LinuxSyscalls.setIovec(localIov, 0, base + done, left);
            long remoteCount = 1;
            if (left > 1) {
                LinuxSyscalls.setIovec(remoteIov, 0, remoteAddress + done, left - 1);
                LinuxSyscalls.setIovec(remoteIov, 1, remoteAddress + done + left - 1, 1);
                remoteCount = 2;
            } else {
                LinuxSyscalls.setIovec(remoteIov, 0, remoteAddress + done, left);
            }
            final long n = LinuxSyscalls.processVmWritev(errno, pid, localIov, 1, remoteIov,
                    remoteCount);
            if (n < 0) {
                final int e = LinuxSyscalls.errno(errno);
                if (e == LinuxSyscalls.EINTR) {
                    continue;
                }
                return e;
            }
            if (n == 0) {
                return LinuxSyscalls.EFAULT;
            }
            done += n;
        }
        return 0;
    }

    /** Copies {@code remoteAddress} in process {@code pid} into {@code local}; 0 or an errno. */
    int read(int pid, MemorySegment local, long remoteAddress) {
        final long length = local.byteSize();
        final long base = local.address();
        long done = 0;
        while (done < length) {
            LinuxSyscalls.setIovec(localIov, 0, base + done, length - done);
            LinuxSyscalls.setIovec(remoteIov, 0, remoteAddress + done, length - done);
            final long n = LinuxSyscalls.processVmReadv(errno, pid, localIov, 1, remoteIov, 1);
            if (n < 0) {
                final int e = LinuxSyscalls.errno(errno);
                if (e == LinuxSyscalls.EINTR) {
                    continue;
                }
                return e;
            }
            if (n == 0) {
                return LinuxSyscalls.EFAULT;
            }
            done += n;
        }
        return 0;
    }

    /** True while {@code pid} exists (kill(pid, 0) succeeds or says EPERM). */
    boolean alive(int pid) {
        if (LinuxSyscalls.kill(errno, pid, 0) == 0) {
            return true;
        }
        return LinuxSyscalls.errno(errno) != LinuxSyscalls.ESRCH;
    }

    /**
     * Lets any process of this user attach (Yama's ptrace_scope=1 otherwise allows only
     * ancestors). Returns 0, or the errno; EINVAL means there is no Yama and nothing to do.
     */
    int allowAnyPtracer() {
        if (LinuxSyscalls.prctl(errno, LinuxSyscalls.PR_SET_PTRACER,
                LinuxSyscalls.PR_SET_PTRACER_ANY) == 0) {
            return 0;
        }
        return LinuxSyscalls.errno(errno);
    }
}
