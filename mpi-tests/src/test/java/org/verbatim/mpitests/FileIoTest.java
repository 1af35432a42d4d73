package org.verbatim.mpitests;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link FileIoProgram} and {@link FileErrorsProgram} at 2 and 4 ranks, {@link FileDatarepProgram}
 * at 2 and 3; MPI-IO without its module.
 */
@Timeout(300)
class FileIoTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void dataAgainstTheSequentialReference(int ranks) throws Exception {
        MpiJob.run(ranks, 240, List.of(), "192m", FileIoProgram.class, dir.toString())
                .assertAllPassed(ranks, 35);
        try (var left = Files.list(dir)) {
            List<String> shfp = left.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".shfp")).toList();
            org.junit.jupiter.api.Assertions.assertEquals(List.of(), shfp,
                    "shared-pointer files left behind");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void badInputGetsItsErrorClass(int ranks) throws Exception {
        MpiJob.run(ranks, 120, List.of(), "128m", FileErrorsProgram.class, dir.toString())
                .assertAllPassed(ranks, 20);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void external32IsBigEndianAcrossRanks(int ranks) throws Exception {
        MpiJob.run(ranks, 120, List.of(), "128m", FileDatarepProgram.class, dir.toString())
                .assertAllPassed(ranks, 5);
    }

    @Test
    void withoutTheModuleEveryFileIsUnsupported() throws Exception {
        String cp = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !isIo(e)).collect(Collectors.joining(File.pathSeparator));
        MpiJob.run(2, 60, List.of(), "128m", cp, FileWithoutModuleProgram.class, dir.toString())
                .assertAllPassed(2, 3);
    }

    /** The io module's jar or classes directory. */
    private static boolean isIo(String entry) {
        return new File(entry).getName().startsWith("verbatim-io-")
                || entry.replace(File.separatorChar, '/').endsWith("/io/target/classes");
    }
}
