package org.verbatim.transport.shm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.verbatim.spi.support.RawSyscall;

/**
 * The file-descriptor calls of the shared segments and the eventfd doorbells, bound like
 * {@link LinuxSyscalls} (errno captured, read only on failure): open, close, ftruncate, eventfd,
 * read, write, ppoll, and pidfd_open/pidfd_getfd through {@code syscall} (glibc wraps them only
 * from 2.36). None of them is on the eager data path: a producer writes an eventfd only when the
 * inbox owner announced that it sleeps. Where {@link RawSyscall} knows the numbers, every call goes
 * through its one shared downcall shape instead (start-up: one stub for all of them).
 */
@SuppressWarnings("restricted")
final class FileDescriptors {
    static final int O_RDWR = 2;
    static final int O_CREAT = 0x40;
    static final int O_EXCL = 0x80;
    static final int O_CLOEXEC = 0x80000;
    static final int EFD_CLOEXEC = 0x80000;
    static final int EFD_NONBLOCK = 0x800;
    static final int EAGAIN = 11;
    static final short POLLIN = 1;
    /** struct pollfd { int fd; short events; short revents; } */
    static final long POLLFD_SIZE = 8;
    /** pidfd_open and pidfd_getfd share their numbers on every architecture (after 424). */
    private static final long SYS_PIDFD_OPEN = 434;
    private static final long SYS_PIDFD_GETFD = 438;

    /**
     * Each call is linked at its first use, through a holder class of its own: linking a
     * downcall costs a cold JVM about 20 ms of CPU (its stub and the method-handle classes spun
     * for its shape), and a rank needs only some of these (issue 16: start-up of many ranks).
     */
    private static final Linker.Option ERRNO_STATE = Linker.Option.captureCallState("errno");

    private static MethodHandle link(String name, FunctionDescriptor descriptor,
                                     Linker.Option... options) {
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().findOrThrow(name), descriptor, options);
    }

    private static final class Open {
        static final MethodHandle H = link("open",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), ERRNO_STATE,
                Linker.Option.firstVariadicArg(2));
    }

    private static final class Close {
        static final MethodHandle H = link("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO_STATE);
    }

    private static final class Ftruncate {
        static final MethodHandle H = link("ftruncate",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), ERRNO_STATE);
    }

    private static final class EventFd {
        static final MethodHandle H = link("eventfd",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_STATE);
    }

    private static final class Read {
        static final MethodHandle H = link("read",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), ERRNO_STATE);
    }

    private static final class Write {
        static final MethodHandle H = link("write",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), ERRNO_STATE);
    }

    private static final class Ppoll {
        static final MethodHandle H = link("ppoll",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS), ERRNO_STATE);
    }

    private static final class Syscall2 {
        static final MethodHandle H = link("syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT), ERRNO_STATE,
                Linker.Option.firstVariadicArg(1));
    }

    private static final class Syscall3 {
        static final MethodHandle H = link("syscall",
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_STATE,
                Linker.Option.firstVariadicArg(1));
    }

    /** The numbers when the calls go through {@link RawSyscall}, else null. */
    private static final RawSyscall.Numbers SYS = RawSyscall.available() ? RawSyscall.NR : null;

    private FileDescriptors() {
    }

    /** open(path, flags, mode); the descriptor or -1. */
    static int open(MemorySegment errno, String path, int flags, int mode) {
        try (Arena arena = Arena.ofConfined()) {
            if (SYS != null) {
                return (int) RawSyscall.call(errno, SYS.openat(), RawSyscall.AT_FDCWD,
                        arena.allocateFrom(path).address(), flags, mode, 0, 0);
            }
            return (int) Open.H.invokeExact(errno, arena.allocateFrom(path), flags, mode);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    static int close(MemorySegment errno, int fd) {
        if (SYS != null) {
            return (int) RawSyscall.call(errno, SYS.close(), fd, 0, 0, 0, 0, 0);
        }
        try {
            return (int) Close.H.invokeExact(errno, fd);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    static int ftruncate(MemorySegment errno, int fd, long length) {
        if (SYS != null) {
            return (int) RawSyscall.call(errno, SYS.ftruncate(), fd, length, 0, 0, 0, 0);
        }
        try {
            return (int) Ftruncate.H.invokeExact(errno, fd, length);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    static int eventfd(MemorySegment errno, int initial, int flags) {
        if (SYS != null) {
            return (int) RawSyscall.call(errno, SYS.eventfd2(), initial, flags, 0, 0, 0, 0);
        }
        try {
            return (int) EventFd.H.invokeExact(errno, initial, flags);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    static long read(MemorySegment errno, int fd, MemorySegment buffer, long length) {
        if (SYS != null) {
            return RawSyscall.call(errno, SYS.read(), fd, buffer.address(), length, 0, 0, 0);
        }
        try {
            return (long) Read.H.invokeExact(errno, fd, buffer, length);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    static long write(MemorySegment errno, int fd, MemorySegment buffer, long length) {
        if (SYS != null) {
            return RawSyscall.call(errno, SYS.write(), fd, buffer.address(), length, 0, 0, 0);
        }
        try {
            return (long) Write.H.invokeExact(errno, fd, buffer, length);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    /** ppoll(fds, count, timeout, NULL); the number of ready descriptors, 0 on timeout, or -1. */
    static int ppoll(MemorySegment errno, MemorySegment fds, long count, MemorySegment timespec) {
        if (SYS != null) {
            // the kernel writes the time left into timespec (libc's wrapper copies it first)
            return (int) RawSyscall.call(errno, SYS.ppoll(), fds.address(), count,
                    timespec.address(), 0, 0, 0);
        }
        try {
            return (int) Ppoll.H.invokeExact(errno, fds, count, timespec, MemorySegment.NULL);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    /** pidfd_open(pid, 0): a descriptor for the process, or -1. */
    static int pidfdOpen(MemorySegment errno, int pid) {
        if (SYS != null) {
            return (int) RawSyscall.call(errno, SYS.pidfdOpen(), pid, 0, 0, 0, 0, 0);
        }
        try {
            return (int) (long) Syscall2.H.invokeExact(errno, SYS_PIDFD_OPEN, pid, 0);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    /** pidfd_getfd(pidfd, targetfd, 0): a duplicate of the process's descriptor, or -1. */
    static int pidfdGetfd(MemorySegment errno, int pidfd, int targetFd) {
        if (SYS != null) {
            return (int) RawSyscall.call(errno, SYS.pidfdGetfd(), pidfd, targetFd, 0, 0, 0, 0);
        }
        try {
            return (int) (long) Syscall3.H.invokeExact(errno, SYS_PIDFD_GETFD, pidfd, targetFd, 0);
        } catch (Throwable t) {
            throw LinuxSyscalls.rethrow(t);
        }
    }

    /**
     * A duplicate of descriptor {@code fd} of process {@code pid} (pidfd_open + pidfd_getfd,
     * which needs the right to ptrace it), or -errno.
     */
    static int fetch(MemorySegment errno, int pid, int fd) {
        final int pidfd = pidfdOpen(errno, pid);
        if (pidfd < 0) {
            return -LinuxSyscalls.errno(errno);
        }
        try {
            final int copy = pidfdGetfd(errno, pidfd, fd);
            return copy < 0 ? -LinuxSyscalls.errno(errno) : copy;
        } finally {
            close(errno, pidfd);
        }
    }

    static void setPollfd(MemorySegment fds, int index, int fd, short events) {
        fds.set(JAVA_INT, index * POLLFD_SIZE, fd);
        fds.set(java.lang.foreign.ValueLayout.JAVA_SHORT, index * POLLFD_SIZE + 4, events);
        fds.set(java.lang.foreign.ValueLayout.JAVA_SHORT, index * POLLFD_SIZE + 6, (short) 0);
    }
}
