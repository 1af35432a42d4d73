package org.verbatim.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Single-copy transfers between processes with Linux cross-memory attach
 * ({@code process_vm_readv}/{@code process_vm_writev}). The iovec arrays and the errno slot are
 * allocated once; a transfer allocates nothing. Not thread-safe: the transport is used by one
 * thread at a time.
 *
 * <p>A write goes out as one system call with two remote iovecs, the body and then its last byte,
 * so the last byte lands after all others (the kernel copies iovecs in order): a target that polls
 * the last byte of a buffer sees the whole buffer once it changes (IN_ORDER_PLACEMENT).
 */
final class CrossMemoryAttach {
    private final MemorySegment errno;
    private final MemorySegment localIov;
    private final MemorySegment remoteIov;

    CrossMemoryAttach(Arena arena) {
        this.errno = LinuxSyscalls.allocateErrno(arena);
        this.localIov = arena.allocate(LinuxSyscalls.IOVEC_SIZE, 8);
        this.remoteIov = arena.allocate(2 * LinuxSyscalls.IOVEC_SIZE, 8);
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
