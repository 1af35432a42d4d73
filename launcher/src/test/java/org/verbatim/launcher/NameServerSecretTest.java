package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the name server's secret comes from, and the files it may come from. */
class NameServerSecretTest {
    @TempDir
    Path dir;

    @Test
    void aMissingFileIsMadePrivateWithANewSecretAndReadBackTheSame() throws Exception {
        Path f = dir.resolve("ns-secret");
        String made = NameServerSecret.readOrCreate(f);
        assertTrue(made.matches("[0-9a-f]{32}"), made);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertEquals(made, NameServerSecret.readOrCreate(f));
        assertEquals(made, NameServerSecret.of(Map.of(NameServerSecret.FILE_VARIABLE, f.toString())));
    }

    @Test
    void theVariableWinsOverTheFileAndNothingSetIsNull() {
        assertEquals("abc", NameServerSecret.of(Map.of(NameServerSecret.VARIABLE, " abc ",
                NameServerSecret.FILE_VARIABLE, "/nonexistent")));
        assertNull(NameServerSecret.of(Map.of()));
    }

    @Test
    void aFileOthersMayReadOrALinkIsRefusedSayingWhy() throws Exception {
        Path open = dir.resolve("open");
        Files.writeString(open, "s3cret\n");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NameServerSecret.read(open));
        assertTrue(e.getMessage().contains("rw-r--r--") && e.getMessage().contains("chmod 600"), e.getMessage());
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-------"));
        assertEquals("s3cret", NameServerSecret.read(open));
        Path link = Files.createSymbolicLink(dir.resolve("link"), open);
        e = assertThrows(IllegalArgumentException.class, () -> NameServerSecret.read(link));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> NameServerSecret.readOrCreate(link));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
        Path bad = dir.resolve("bad");
        Files.writeString(bad, "two words\n");
        Files.setPosixFilePermissions(bad, PosixFilePermissions.fromString("rw-------"));
        e = assertThrows(IllegalArgumentException.class, () -> NameServerSecret.read(bad));
        assertTrue(e.getMessage().contains("printable"), e.getMessage());
    }
}
