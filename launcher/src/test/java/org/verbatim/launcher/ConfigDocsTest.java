package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/configuration.md must be what the code's settings generate. */
class ConfigDocsTest {
    private static final Path DOC = Path.of("..", "docs", "configuration.md");

    @Test
    void committedPageMatchesTheSettings() throws Exception {
        // Settings that only tests declare (loaded from target/test-classes) are not documented.
        String generated = ConfigDocs.render(p -> !p.getClass().getProtectionDomain().getCodeSource()
                .getLocation().toString().contains("test-classes"));
        assertTrue(generated.contains("verbatim.core.eager-limit"), generated);
        assertTrue(generated.contains("verbatim.shm."), "shm settings found on the class path");
        if (Boolean.getBoolean("verbatim.docs.update")) {
            Files.writeString(DOC, generated);
        }
        assertEquals(generated, Files.exists(DOC) ? Files.readString(DOC) : "",
                "docs/configuration.md is stale: run ./mvnw -q -o -pl launcher test "
                        + "-Dtest=ConfigDocsTest -Dverbatim.docs.update=true");
    }
}
