package org.verbatim.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Positional reads and writes of memory segments on one file channel. Native memory (direct
 * buffers) goes straight to the channel; heap memory (arrays) through one reused native staging
 * buffer, chunk by chunk, so the JDK never makes a temporary direct buffer of the whole size.
 */
final class ChannelIo {
    /** Bytes of the staging buffer for heap memory. */
    static final int STAGING = 4 << 20;
    /** Most bytes per ByteBuffer view of native memory. */
    private static final long CHUNK = 1L << 30;
    private final FileChannel channel;
    private final String path;
    private MemorySegment staging;

    ChannelIo(FileChannel channel, String path) {
        this.channel = channel;
        this.path = path;
    }

    FileChannel channel() {
        return channel;
    }

    String path() {
        return path;
    }

    /** Writes {@code length} bytes of {@code src} from {@code at} to file offset {@code offset}. */
    synchronized void write(long offset, MemorySegment src, long at, long length)
            throws IOException {
        if (src.isNative()) {
            for (long done = 0; done < length; ) {
                long n = Math.min(CHUNK, length - done);
                ByteBuffer b = src.asSlice(at + done, n).asByteBuffer();
                long pos = offset + done;
                while (b.hasRemaining()) {
                    pos += channel.write(b, pos);
                }
                done += n;
            }
            return;
        }
        MemorySegment s = staging();
        long done = 0;
        while (done < length) {
            int n = (int) Math.min(STAGING, length - done);
            MemorySegment.copy(src, at + done, s, 0, n);
            ByteBuffer b = s.asSlice(0, n).asByteBuffer();
            long pos = offset + done;
            while (b.hasRemaining()) {
                pos += channel.write(b, pos);
            }
            done += n;
        }
    }

    /**
     * Reads up to {@code length} bytes at file offset {@code offset} into {@code dst} at
     * {@code at}; returns the bytes read, fewer only at the end of file.
     */
    synchronized long read(long offset, MemorySegment dst, long at, long length)
            throws IOException {
        if (dst.isNative()) {
            long done = 0;
            while (done < length) {
                long n = Math.min(CHUNK, length - done);
                long got = fill(dst.asSlice(at + done, n).asByteBuffer(), offset + done);
                done += got;
                if (got < n) {
                    break;
                }
            }
            return done;
        }
        MemorySegment s = staging();
        long done = 0;
        while (done < length) {
            int n = (int) Math.min(STAGING, length - done);
            long got = fill(s.asSlice(0, n).asByteBuffer(), offset + done);
            MemorySegment.copy(s, 0, dst, at + done, got);
            done += got;
            if (got < n) {
                break;
            }
        }
        return done;
    }

    private long fill(ByteBuffer b, long offset) throws IOException {
        long pos = offset;
        while (b.hasRemaining()) {
            int n = channel.read(b, pos);
            if (n < 0) {
                break;
            }
            pos += n;
        }
        return pos - offset;
    }

    private MemorySegment staging() {
        if (staging == null) {
            staging = Arena.ofAuto().allocate(STAGING, 4096);
        }
        return staging;
    }
}
