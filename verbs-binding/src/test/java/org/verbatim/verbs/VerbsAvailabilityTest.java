package org.verbatim.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each cause of the availability probe, reached for real on a machine without RDMA. */
class VerbsAvailabilityTest {

    /** A kernel with ib_uverbs publishes this directory; these tests expect a kernel without. */
    private static final boolean KERNEL_HAS_RDMA = Files.exists(Path.of("/sys/class/infiniband_verbs"));

    @Test
    void kernelWithoutIbUverbs() {
        assumeFalse(KERNEL_HAS_RDMA, "the kernel has RDMA support");
        var report = VerbsAvailability.probe();
        assertEquals(Optional.of(VerbsAvailability.NO_KERNEL_SUPPORT), report.cause());
        assertEquals(List.of(), report.devices());
        assertEquals(report.cause(), VerbsAvailability.unavailabilityCause());
    }

    @Test
    void emptySysfsMeansNoDevices(@TempDir Path sysfs) throws Exception {
        Path verbs = Files.createDirectories(sysfs.resolve("class/infiniband_verbs"));
        Files.writeString(verbs.resolve("abi_version"), "6\n");
        var run = runMain(true, Map.of("SYSFS_PATH", sysfs.toString()));
        assertEquals("unavailable: " + VerbsAvailability.NO_DEVICES, run.output());
        assertEquals(1, run.exit());
    }

    /** No class/infiniband_verbs under libibverbs' sysfs root: the kernel cause, on any machine. */
    @Test
    void sysfsWithoutUverbsMeansNoKernelSupport(@TempDir Path sysfs) throws Exception {
        Files.createDirectories(sysfs.resolve("class"));
        var run = runMain(true, Map.of("SYSFS_PATH", sysfs.toString()));
        assertEquals("unavailable: " + VerbsAvailability.NO_KERNEL_SUPPORT, run.output());
        assertEquals(1, run.exit());
    }

    @Test
    void rdmaCmWithoutDevices() {
        assumeFalse(Files.exists(Path.of("/sys/class/infiniband")), "the kernel has RDMA devices");
        assertEquals(Optional.of(VerbsAvailability.NO_CM_DEVICES), VerbsAvailability.cmCause("librdmacm.so.1"));
    }

    @Test
    void missingLibraries() {
        assertEquals(Optional.of(VerbsAvailability.NO_LIBIBVERBS),
                VerbsAvailability.probe(true, "libverbatim-no-such-ibverbs.so.1", "librdmacm.so.1").cause());
        assertEquals(Optional.of(VerbsAvailability.NO_LIBRDMACM), VerbsAvailability.cmCause("libverbatim-no-such-rdmacm.so.1"));
    }

    @Test
    void nativeAccessNotEnabled() throws Exception {
        assertEquals(Optional.of(VerbsAvailability.NO_NATIVE_ACCESS), VerbsAvailability.probe(false, "x", "y").cause());
        var run = runMain(false, Map.of());
        assertEquals("unavailable: " + VerbsAvailability.NO_NATIVE_ACCESS, run.output());
        assertEquals(1, run.exit());
    }

    @Test
    void mainReportsTheKernelCause() throws Exception {
        assumeFalse(KERNEL_HAS_RDMA, "the kernel has RDMA support");
        var run = runMain(true, Map.of());
        assertEquals("unavailable: " + VerbsAvailability.NO_KERNEL_SUPPORT, run.output());
        assertEquals(1, run.exit());
    }

    record Run(String output, int exit) { }

    /** Runs VerbsAvailability.main in a fresh JVM, where a crash would show as a signal exit. */
    private static Run runMain(boolean nativeAccess, Map<String, String> env) throws IOException, InterruptedException {
        var cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (nativeAccess) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), VerbsAvailability.class.getName()));
        var pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe JVM timed out");
        return new Run(out, p.exitValue());
    }
}
