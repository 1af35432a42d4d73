package org.verbatim.bootstrap;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;

/**
 * PMI over an inherited socket descriptor ({@code PMI_FD}, as Hydra gives it). Java's standard
 * library cannot adopt a raw descriptor, so this reads and writes it with libc's read(2) and
 * write(2) through FFM, with errno captured and EINTR retried.
 */
final class FdPmiChannel implements PmiChannel {
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;

    private final int fd;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buffer;
    private final MemorySegment callState;
    private final LineBuffer lines = new LineBuffer(4096);
    private boolean closed;

    FdPmiChannel(int fd) {
        this.fd = fd;
        this.buffer = arena.allocate(4096);
        this.callState = arena.allocate(Libc.CALL_STATE);
    }

    @Override
    public void writeLine(String line) throws IOException {
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        try (Arena call = Arena.ofConfined()) {
            MemorySegment src = call.allocate(bytes.length);
            MemorySegment.copy(bytes, 0, src, ValueLayout.JAVA_BYTE, 0, bytes.length);
            long done = 0;
            while (done < bytes.length) {
                long n = Libc.write(callState, fd, src.asSlice(done), bytes.length - done);
                if (n < 0) {
                    int errno = Libc.errno(callState);
                    if (errno == EINTR || errno == EAGAIN) {
                        continue;
                    }
                    throw new IOException("write to PMI_FD " + fd + " failed: errno " + errno);
                }
                done += n;
            }
        }
    }

    @Override
    public String readLine() throws IOException {
        String line = lines.nextLine();
        while (line == null) {
            long n = Libc.read(callState, fd, buffer, buffer.byteSize());
            if (n < 0) {
                int errno = Libc.errno(callState);
                if (errno == EINTR || errno == EAGAIN) {
                    continue;
                }
                throw new IOException("read from PMI_FD " + fd + " failed: errno " + errno);
            }
            if (n == 0) {
                throw new EOFException("process manager closed PMI_FD " + fd);
            }
            byte[] dst = lines.array();
            MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, dst, 0, (int) n);
            lines.filled((int) n);
            line = lines.nextLine();
        }
        return line;
    }

    @Override
    public String describe() {
        return "PMI_FD " + fd;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Libc.close(callState, fd);
            arena.close();
        }
    }

    /** The three libc calls, bound on first use so that other bootstraps never need native access. */
    @SuppressWarnings("restricted")
    static final class Libc {
        static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
        private static final VarHandle ERRNO =
                CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        private static final Linker LINKER = Linker.nativeLinker();
        private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");
        private static final MethodHandle READ = LINKER.downcallHandle(
                LINKER.defaultLookup().find("read").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
                ERRNO_OPTION);
        private static final MethodHandle WRITE = LINKER.downcallHandle(
                LINKER.defaultLookup().find("write").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
                ERRNO_OPTION);
        private static final MethodHandle CLOSE = LINKER.downcallHandle(
                LINKER.defaultLookup().find("close").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                ERRNO_OPTION);

        private Libc() {
        }

        static long read(MemorySegment state, int fd, MemorySegment buf, long len) {
            try {
                return (long) READ.invokeExact(state, fd, buf, len);
            } catch (Throwable t) {
                throw new IllegalStateException("read(2) downcall failed", t);
            }
        }

        static long write(MemorySegment state, int fd, MemorySegment buf, long len) {
            try {
                return (long) WRITE.invokeExact(state, fd, buf, len);
            } catch (Throwable t) {
                throw new IllegalStateException("write(2) downcall failed", t);
            }
        }

        static int close(MemorySegment state, int fd) {
            try {
                return (int) CLOSE.invokeExact(state, fd);
            } catch (Throwable t) {
                throw new IllegalStateException("close(2) downcall failed", t);
            }
        }

        static int errno(MemorySegment state) {
            return (int) ERRNO.get(state, 0L);
        }
    }
}
