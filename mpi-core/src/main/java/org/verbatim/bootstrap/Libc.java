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

/**
 * The libc calls of the PMI client and its launcher watch: descriptor I/O, the TCP connection of
 * {@code PMI_PORT}, poll, prctl and getppid. Bound on first use, so that a singleton never needs
 * native access; errno is captured and read only when a call failed.
 */
@SuppressWarnings("restricted")
final class Libc {
    static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    static final int EINTR = 4;
    static final int EAGAIN = 11;

    private static final MethodHandle READ;
    private static final MethodHandle WRITE;
    private static final MethodHandle CLOSE;
    private static final MethodHandle SOCKET;
    private static final MethodHandle CONNECT;
    private static final MethodHandle SETSOCKOPT;
    private static final MethodHandle POLL;
    private static final MethodHandle PRCTL;
    private static final MethodHandle GETPPID;
    private static final MethodHandle STRERROR;

    static {
        Linker linker = Linker.nativeLinker();
        Linker.Option errno = Linker.Option.captureCallState("errno");
        var lookup = linker.defaultLookup();
        READ = linker.downcallHandle(lookup.findOrThrow("read"),
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
        WRITE = linker.downcallHandle(lookup.findOrThrow("write"),
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
        CLOSE = linker.downcallHandle(lookup.findOrThrow("close"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno);
        SOCKET = linker.downcallHandle(lookup.findOrThrow("socket"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), errno);
        CONNECT = linker.downcallHandle(lookup.findOrThrow("connect"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), errno);
        SETSOCKOPT = linker.downcallHandle(lookup.findOrThrow("setsockopt"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), errno);
        POLL = linker.downcallHandle(lookup.findOrThrow("poll"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), errno);
        PRCTL = linker.downcallHandle(lookup.findOrThrow("prctl"),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), errno,
                Linker.Option.firstVariadicArg(1));
        GETPPID = linker.downcallHandle(lookup.findOrThrow("getppid"), FunctionDescriptor.of(JAVA_INT));
        STRERROR = linker.downcallHandle(lookup.findOrThrow("strerror"),
                FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    private Libc() {
    }

    static long read(MemorySegment state, int fd, MemorySegment buf, long len) {
        try {
            return (long) READ.invokeExact(state, fd, buf, len);
        } catch (Throwable t) {
            throw failed("read", t);
        }
    }

    static long write(MemorySegment state, int fd, MemorySegment buf, long len) {
        try {
            return (long) WRITE.invokeExact(state, fd, buf, len);
        } catch (Throwable t) {
            throw failed("write", t);
        }
    }

    static int close(MemorySegment state, int fd) {
        try {
            return (int) CLOSE.invokeExact(state, fd);
        } catch (Throwable t) {
            throw failed("close", t);
        }
    }

    static int socket(MemorySegment state, int domain, int type, int protocol) {
        try {
            return (int) SOCKET.invokeExact(state, domain, type, protocol);
        } catch (Throwable t) {
            throw failed("socket", t);
        }
    }

    static int connect(MemorySegment state, int fd, MemorySegment address, int length) {
        try {
            return (int) CONNECT.invokeExact(state, fd, address, length);
        } catch (Throwable t) {
            throw failed("connect", t);
        }
    }

    static int setsockopt(MemorySegment state, int fd, int level, int name, MemorySegment value, int length) {
        try {
            return (int) SETSOCKOPT.invokeExact(state, fd, level, name, value, length);
        } catch (Throwable t) {
            throw failed("setsockopt", t);
        }
    }

    /** poll(fds, count, timeoutMillis): ready descriptors, 0 on timeout, -1 on error. */
    static int poll(MemorySegment state, MemorySegment fds, long count, int timeoutMillis) {
        try {
            return (int) POLL.invokeExact(state, fds, count, timeoutMillis);
        } catch (Throwable t) {
            throw failed("poll", t);
        }
    }

    static int prctl(MemorySegment state, int option, long arg) {
        try {
            return (int) PRCTL.invokeExact(state, option, arg);
        } catch (Throwable t) {
            throw failed("prctl", t);
        }
    }

    static int getppid() {
        try {
            return (int) GETPPID.invokeExact();
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
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
            return text.reinterpret(256).getString(0) + " (errno " + errno + ")";
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    private static IllegalStateException failed(String call, Throwable t) {
        return new IllegalStateException(call + "(2) downcall failed", t);
    }
}
