package org.verbatim.bootstrap;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * PMI over a socket descriptor: inherited ({@code PMI_FD}, as Hydra gives it) or connected by
 * {@link PmiSocket} ({@code PMI_PORT}). Java's standard library cannot adopt a raw descriptor, so
 * this reads and writes it with libc's read(2) and write(2) through FFM, with errno captured and
 * EINTR retried. Holding the descriptor itself is what lets {@link LauncherWatch} poll it for the
 * process manager's end.
 */
final class FdPmiChannel implements PmiChannel {
    private static final int EINTR = Libc.EINTR;
    private static final int EAGAIN = Libc.EAGAIN;

    private final int fd;
    private final String where;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment buffer;
    private final MemorySegment callState;
    private final LineBuffer lines = new LineBuffer(4096);
    private boolean closed;

    /** The inherited descriptor of {@code PMI_FD}. */
    FdPmiChannel(int fd) {
        this(fd, "PMI_FD " + fd);
    }

    /** A descriptor described as {@code where} in messages ("PMI_PORT host:port"). */
    FdPmiChannel(int fd, String where) {
        this.fd = fd;
        this.where = where;
        this.buffer = arena.allocate(4096);
        this.callState = arena.allocate(Libc.CALL_STATE);
    }

    @Override
    public void writeLine(String line) throws IOException {
        write(line + "\n");
    }

    /** Writes {@code text} as it is (PMI-2 frames carry their length instead of a newline). */
    void write(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
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
                    throw new IOException("write to " + where + " failed: " + Libc.describe(errno));
                }
                done += n;
            }
        }
    }

    @Override
    public String readLine() throws IOException {
        String line = lines.nextLine();
        while (line == null) {
            fill();
            line = lines.nextLine();
        }
        return line;
    }

    /** Reads exactly {@code n} bytes (a PMI-2 frame's length field, or its body). */
    String readBytes(int n) throws IOException {
        String s = lines.nextBytes(n);
        while (s == null) {
            fill();
            s = lines.nextBytes(n);
        }
        return s;
    }

    /** Reads what the descriptor has into the line buffer (at least one byte). */
    private void fill() throws IOException {
        while (true) {
            long n = Libc.read(callState, fd, buffer, buffer.byteSize());
            if (n < 0) {
                int errno = Libc.errno(callState);
                if (errno == EINTR || errno == EAGAIN) {
                    continue;
                }
                throw new IOException("read from " + where + " failed: " + Libc.describe(errno));
            }
            if (n == 0) {
                throw new EOFException("process manager closed the connection (" + where + ")");
            }
            byte[] dst = lines.array();
            MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, dst, 0, (int) n);
            lines.filled((int) n);
            return;
        }
    }

    @Override
    public String describe() {
        return where;
    }

    /** The descriptor (for {@link LauncherWatch}'s poll). */
    int fd() {
        return fd;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Libc.close(callState, fd);
            arena.close();
        }
    }
}
