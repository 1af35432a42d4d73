package org.verbatim.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Heap memory (through staging, in several chunks) and native memory land the same bytes. */
class ChannelIoTest {
    @TempDir
    Path dir;

    @Test
    void heapAndNativeMemoryWriteAndReadTheSameBytes() throws Exception {
        Path f = dir.resolve("f");
        int n = ChannelIo.STAGING * 2 + 12345;
        int[] ints = new int[n / 4 + 2];
        for (int i = 0; i < ints.length; i++) {
            ints[i] = i * 31 + 7;
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE); Arena arena = Arena.ofConfined()) {
            ChannelIo io = new ChannelIo(ch, f.toString());
            MemorySegment heap = MemorySegment.ofArray(ints);
            io.write(10, heap, 4, n);
            MemorySegment nat = arena.allocate(n);
            assertEquals(n, io.read(10, nat, 0, n));
            assertEquals(-1, nat.mismatch(heap.asSlice(4, n)));
            io.write(10L + n, nat, 0, 100);
            int[] back = new int[ints.length + 300];
            long got = io.read(10, MemorySegment.ofArray(back), 4, n + 1000);
            assertEquals(n + 100, got);
            assertEquals(ints[5], back[5]);
            assertEquals(10L + n + 100, Files.size(f));
            byte[] head = new byte[10];
            assertEquals(10, io.read(0, MemorySegment.ofArray(head), 0, 10));
            assertArrayEquals(new byte[10], head);
            assertEquals(0, nat.get(ValueLayout.JAVA_BYTE, 0) - heap.get(ValueLayout.JAVA_BYTE, 4));
        }
    }
}
