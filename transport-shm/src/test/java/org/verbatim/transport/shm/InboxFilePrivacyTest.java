package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Inbox files carry message payloads: only the job's user may open or map them. */
class InboxFilePrivacyTest {
    private static final int CAPACITY = 64 * 1024;
    private static final int RECORD = 1024;

    private final Path path = InboxFile.path("/dev/shm",
            "privacy" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1), 0);

    @AfterEach
    void remove() throws IOException {
        Files.deleteIfExists(path);
    }

    @Test
    void aNewInboxIsMode0600AndOwnedByThisUser() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            InboxFile.create(path, CAPACITY, RECORD, 1, arena);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
            assertEquals(ProcessUser.uid(), ((Number) Files.getAttribute(path, "unix:uid")).intValue());
        }
    }

    @Test
    void anotherUserCannotReadAPayload() throws IOException {
        SecondUser other = SecondUser.obtain();
        Assumptions.assumeTrue(other != null, () -> "skipped: " + SecondUser.whyNot);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment inbox = InboxFile.create(path, CAPACITY, RECORD, 1, arena).file();
            inbox.set(ValueLayout.JAVA_LONG, InboxDescriptor.fileSize(CAPACITY) - 8, 0x5EC2E7L);
            SecondUser.Result read = other.runAs("od", "-A", "d", "-t", "x8", path.toString());
            assertNotEquals(0, read.status(), "the second user read the inbox: " + read.output());
            assertTrue(read.output().contains("Permission denied"), read.output());
        }
    }

    @Test
    void aFileCreatedByAnotherUserIsRefused() throws IOException {
        SecondUser other = SecondUser.obtain();
        Assumptions.assumeTrue(other != null, () -> "skipped: " + SecondUser.whyNot);
        // The planted file is even writable by us (0666), so only the owner check stops it.
        SecondUser.Result made = other.runAs("sh", "-c", "umask 0; truncate -s "
                + InboxDescriptor.fileSize(CAPACITY) + " " + path);
        assertEquals(0, made.status(), made.output());
        try (Arena arena = Arena.ofConfined()) {
            IOException e = assertThrows(IOException.class,
                    () -> InboxFile.map(path, CAPACITY, RECORD, arena));
            assertTrue(e.getMessage().contains("belongs to user " + SecondUser.NAME + " (uid " + other.uid + ")"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("refusing to map it"), e.getMessage());
        }
    }

    @Test
    void ownFileOpenToOthersIsRefused() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            InboxFile.create(path, CAPACITY, RECORD, 1, arena);
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-r--r--"));
            IOException e = assertThrows(IOException.class,
                    () -> InboxFile.map(path, CAPACITY, RECORD, arena));
            assertTrue(e.getMessage().contains("has mode rw-r--r--, not rw-------"), e.getMessage());
        }
    }

    @Test
    void aPrivateFileOfThisUserMaps() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment created = InboxFile.create(path, CAPACITY, RECORD, 1, arena).file();
            MemorySegment mapped = InboxFile.map(path, CAPACITY, RECORD, arena);
            created.set(ValueLayout.JAVA_LONG, 4096, 42L);
            assertEquals(42L, mapped.get(ValueLayout.JAVA_LONG, 4096));
        }
    }
}
