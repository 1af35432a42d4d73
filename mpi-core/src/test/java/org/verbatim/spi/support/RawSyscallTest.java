package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RawSyscallTest {
    private static final int ENOENT = 2;

    @Test
    void numbersOnlyWhereKnown() {
        assertNotNull(RawSyscall.Numbers.of("Linux", "amd64"));
        assertNotNull(RawSyscall.Numbers.of("Linux", "aarch64"));
        assertNull(RawSyscall.Numbers.of("Linux", "ppc64le"));
        assertNull(RawSyscall.Numbers.of("Mac OS X", "aarch64"));
        assertEquals(110, RawSyscall.Numbers.of("Linux", "x86_64").getppid());
        assertEquals(173, RawSyscall.Numbers.of("Linux", "aarch64").getppid());
    }

    @Test
    void callsReachTheKernel(@TempDir Path dir) throws Exception {
        assumeTrue(RawSyscall.available(), "not Linux on a known architecture");
        RawSyscall.Numbers nr = RawSyscall.NR;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(RawSyscall.STATE);
            long parent = ProcessHandle.current().parent().orElseThrow().pid();
            assertEquals(parent, RawSyscall.call(state, nr.getppid(), 0, 0, 0, 0, 0, 0));
            assertEquals(0, RawSyscall.call(state, nr.kill(), ProcessHandle.current().pid(), 0, 0, 0, 0, 0));

            MemorySegment missing = arena.allocateFrom(dir.resolve("missing").toString());
            assertEquals(-1, RawSyscall.call(state, nr.openat(), RawSyscall.AT_FDCWD, missing.address(), 0, 0, 0, 0));
            assertEquals(ENOENT, RawSyscall.errno(state));

            // openat + write + ftruncate + close through the raw calls, checked through java.nio
            Path file = dir.resolve("raw");
            MemorySegment path = arena.allocateFrom(file.toString());
            int fd = (int) RawSyscall.call(state, nr.openat(), RawSyscall.AT_FDCWD, path.address(),
                    0x2 | 0x40, 0600, 0, 0); // O_RDWR | O_CREAT
            assertEquals(true, fd >= 0, "openat: errno " + RawSyscall.errno(state));
            MemorySegment text = arena.allocateFrom(ValueLayout.JAVA_BYTE, "verbatim".getBytes());
            assertEquals(8, RawSyscall.call(state, nr.write(), fd, text.address(), 8, 0, 0, 0));
            assertEquals(0, RawSyscall.call(state, nr.ftruncate(), fd, 4, 0, 0, 0, 0));
            assertEquals(0, RawSyscall.call(state, nr.close(), fd, 0, 0, 0, 0, 0));
            assertEquals("verb", Files.readString(file));
        }
    }
}
