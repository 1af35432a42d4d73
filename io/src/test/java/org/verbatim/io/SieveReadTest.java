package org.verbatim.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.verbatim.datatype.CommittedType;
import org.verbatim.datatype.Types;
import org.verbatim.runtime.io.IoBuffer;

/** Sieved reads land exactly what extent-by-extent reads land, also across the end of file. */
class SieveReadTest {
    @TempDir
    Path dir;

    @Test
    void sievedReadsEqualPlainReadsAndStopAtTheEndOfFile() throws Exception {
        Path f = dir.resolve("f");
        int n = 3 << 20;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE); Arena arena = Arena.ofConfined()) {
            ChannelIo io = new ChannelIo(ch, f.toString());
            MemorySegment content = arena.allocate(n);
            for (int i = 0; i < n; i++) {
                content.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + i / 251));
            }
            io.write(0, content, 0, n);
            // every third int, from byte 8, past the end of the file
            Extents ex = new Extents();
            for (long at = 8; at < n + 4096; at += 12) {
                ex.add(at, 4);
            }
            CommittedType bytes = CommittedType.of(Types.predefined("byte", 1, 1));
            MemorySegment sieved = arena.allocate(ex.bytes());
            MemorySegment small = arena.allocate(64 << 10);
            long got = SieveRead.read(io, ex, Transfer.of(false, new IoBuffer(sieved,
                    bytes.shape(Math.toIntExact(ex.bytes())))), small);
            long want = ex.bytesBefore(n);
            assertEquals(want, got);
            for (int k = 0; k < want / 4; k++) {
                long fileAt = 8 + 12L * k;
                assertEquals(content.get(ValueLayout.JAVA_INT_UNALIGNED, fileAt),
                        sieved.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * k), "int " + k);
            }
        }
    }
}
