package org.verbatim.bootstrap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import org.verbatim.spi.support.RawSyscall;

/**
 * The libc calls of the PMI client and its launcher watch: descriptor I/O, the TCP connection of
 * {@code PMI_PORT}, poll, prctl and getppid. Each bound at its first use, so that a singleton
 * never needs native access and a rank links only what it calls; errno is captured and read only when a call failed.
 */
@SuppressWarnings("restricted")
final class Libc {
    static final StructLayout CALL_STATE = RawSyscall.STATE;
    private static final VarHandle ERRNO =
            CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    static final int EINTR = 4;
    static final int EAGAIN = 11;

    /**
     * Each call is linked at its first use, through a holder class of its own: linking a
     * downcall costs a cold JVM about 20 ms of CPU (the stub and the method-handle classes spun
     * for its shape), and a rank uses only some of these (issue 16: start-up of many ranks).
     */
    private static final Linker.Option ERRNO_STATE = Linker.Option.captureCallState("errno");

    /** This machine's system call numbers, or null: each call then links libc's function. */
    private static final RawSyscall.Numbers SYS = RawSyscall.available() ? RawSyscall.NR : null;

    /** Through {@link RawSyscall}: one downcall shape for every call here and in the transports. */
    private static long syscall(MemorySegment state, long number, long a, long b, long c, long d, long e) {
        return RawSyscall.call(state, number, a, b, c, d, e, 0);
    }

    private static MethodHandle link(String name, FunctionDescriptor descriptor,
                                     Linker.Option... options) {
        Linker linker = Linker.nativeLinker();
        return linker.downcallHandle(linker.defaultLookup().findOrThrow(name), descriptor, options);
    }

    private static final class Read {
        static final MethodHandle H = link("read",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), ERRNO_STATE);
    }

    private static final class Write {
        static final MethodHandle H = link("write",
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), ERRNO_STATE);
    }

    private static final class Close {
        static final MethodHandle H = link("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO_STATE);
    }

    private static final class Socket {
        static final MethodHandle H = link("socket",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), ERRNO_STATE);
    }

    private static final class Connect {
        static final MethodHandle H = link("connect",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), ERRNO_STATE);
    }

    private static final class SetSockOpt {
        static final MethodHandle H = link("setsockopt",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT),
                ERRNO_STATE);
    }

    private static final class Poll {
        static final MethodHandle H = link("poll",
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), ERRNO_STATE);
    }

    private static final class Prctl {
        static final MethodHandle H = link("prctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG),
                ERRNO_STATE, Linker.Option.firstVariadicArg(1));
    }

    private static final class GetPpid {
        static final MethodHandle H = link("getppid", FunctionDescriptor.of(JAVA_INT));
    }

    private static final class StrError {
        static final MethodHandle H = link("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    private Libc() {
    }

    static long read(MemorySegment state, int fd, MemorySegment buf, long len) {
        if (SYS != null) {
            return syscall(state, SYS.read(), fd, buf.address(), len, 0, 0);
        }
        try {
            return (long) Read.H.invokeExact(state, fd, buf, len);
        } catch (Throwable t) {
            throw failed("read", t);
        }
    }

    static long write(MemorySegment state, int fd, MemorySegment buf, long len) {
        if (SYS != null) {
            return syscall(state, SYS.write(), fd, buf.address(), len, 0, 0);
        }
        try {
            return (long) Write.H.invokeExact(state, fd, buf, len);
        } catch (Throwable t) {
            throw failed("write", t);
        }
    }

    static int close(MemorySegment state, int fd) {
        if (SYS != null) {
            return (int) syscall(state, SYS.close(), fd, 0, 0, 0, 0);
        }
        try {
            return (int) Close.H.invokeExact(state, fd);
        } catch (Throwable t) {
            throw failed("close", t);
        }
    }

    static int socket(MemorySegment state, int domain, int type, int protocol) {
        if (SYS != null) {
            return (int) syscall(state, SYS.socket(), domain, type, protocol, 0, 0);
        }
        try {
            return (int) Socket.H.invokeExact(state, domain, type, protocol);
        } catch (Throwable t) {
            throw failed("socket", t);
        }
    }

    static int connect(MemorySegment state, int fd, MemorySegment address, int length) {
        if (SYS != null) {
            return (int) syscall(state, SYS.connect(), fd, address.address(), length, 0, 0);
        }
        try {
            return (int) Connect.H.invokeExact(state, fd, address, length);
        } catch (Throwable t) {
            throw failed("connect", t);
        }
    }

    static int setsockopt(MemorySegment state, int fd, int level, int name, MemorySegment value, int length) {
        if (SYS != null) {
            return (int) syscall(state, SYS.setsockopt(), fd, level, name, value.address(), length);
        }
        try {
            return (int) SetSockOpt.H.invokeExact(state, fd, level, name, value, length);
        } catch (Throwable t) {
            throw failed("setsockopt", t);
        }
    }

    /** poll(fds, count, timeoutMillis): ready descriptors, 0 on timeout, -1 on error. */
    static int poll(MemorySegment state, MemorySegment fds, long count, int timeoutMillis) {
        if (SYS != null) {
            // ppoll: aarch64 has no poll; the timeout as a struct timespec, no signal mask
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                MemorySegment timeout = arena.allocate(16, 8);
                timeout.set(JAVA_LONG, 0, timeoutMillis / 1000);
                timeout.set(JAVA_LONG, 8, (timeoutMillis % 1000) * 1_000_000L);
                return (int) syscall(state, SYS.ppoll(), fds.address(), count, timeout.address(), 0, 0);
            }
        }
        try {
            return (int) Poll.H.invokeExact(state, fds, count, timeoutMillis);
        } catch (Throwable t) {
            throw failed("poll", t);
        }
    }

    static int prctl(MemorySegment state, int option, long arg) {
        if (SYS != null) {
            return (int) syscall(state, SYS.prctl(), option, arg, 0, 0, 0);
        }
        try {
            return (int) Prctl.H.invokeExact(state, option, arg);
        } catch (Throwable t) {
            throw failed("prctl", t);
        }
    }

    static int getppid() {
        if (SYS != null) {
            try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
                return (int) syscall(arena.allocate(CALL_STATE), SYS.getppid(), 0, 0, 0, 0, 0);
            }
        }
        try {
            return (int) GetPpid.H.invokeExact();
        } catch (Throwable t) {
            throw failed("getppid", t);
        }
    }

    static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    /** "Connection refused (errno 111)". */
    static String describe(int errno) {
        try {
            MemorySegment text = (MemorySegment) StrError.H.invokeExact(errno);
            return text.reinterpret(256).getString(0) + " (errno " + errno + ")";
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static IllegalStateException failed(String call, Throwable t) {
        return new IllegalStateException(call + "(2) downcall failed", t);
    }
}
