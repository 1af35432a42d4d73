package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.verbatim.config.SettingsProvider;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportProvider;

class ShmTransportTest {

    @Test
    void isFoundByServiceLoaderWithItsSettings() {
        TransportProvider shm = ServiceLoader.load(TransportProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(p -> p.name().equals("shm")).findFirst()
                .orElseThrow();
        assertEquals(10, shm.priority());
        assertEquals(java.util.Optional.empty(), shm.unavailabilityCause());
        SettingsProvider settings = ServiceLoader.load(SettingsProvider.class).stream()
                .map(ServiceLoader.Provider::get).filter(p -> p.area().equals("shm")).findFirst()
                .orElseThrow();
        assertEquals(ShmConfiguration.SETTINGS, settings.settings());
        settings.settings().forEach(s -> {
            assertTrue(s.name().startsWith("verbatim.shm."), s.name());
            assertFalse(s.description().isBlank(), s.name());
        });
    }

    @Test
    void configurationIsValidated() {
        assertEquals(16384, ShmConfiguration.from(Map.of()).eagerSize());
        assertEquals(512 * 1024, ShmConfiguration.from(Map.of()).inboxSize());
        assertThrows(IllegalArgumentException.class,
                () -> ShmConfiguration.from(Map.of("verbatim.shm.inbox-size", "100000")));
        assertThrows(IllegalArgumentException.class,
                () -> ShmConfiguration.from(Map.of("verbatim.shm.inbox-size", "64k")));
        assertThrows(IllegalArgumentException.class,
                () -> ShmConfiguration.from(Map.of("verbatim.shm.eager-size", "100")));
        assertThrows(IllegalArgumentException.class,
                () -> ShmConfiguration.from(Map.of("verbatim.shm.cma", "maybe")));
    }

    /**
     * A peer in another JVM: eager round trips and CMA between real processes, the inbox files
     * unlinked as soon as open returns, and a SIGKILLed peer reported through onPeerFailure
     * within a few liveness intervals, leaving no file in /dev/shm.
     */
    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void peerInAnotherProcessEchoesThenIsReportedDeadAfterSigkill(@TempDir Path kvs)
            throws Exception {
        crashTest(kvs, "true");
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void sameWithTheFallback(@TempDir Path kvs) throws Exception {
        crashTest(kvs, "false");
    }

    private void crashTest(Path kvs, String cma) throws Exception {
        String jobId = "shmtest-" + UUID.randomUUID().toString().substring(0, 8);
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(javaBin, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), ShmPeerProcess.class.getName(),
                kvs.toString(), jobId, "1", "2", cma)
                .redirectErrorStream(true).redirectOutput(kvs.resolve("child.log").toFile()).start();
        List<byte[]> received = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        java.util.Map<Long, Integer> statuses = new java.util.HashMap<>();
        CompletionHandler handler = new CompletionHandler() {
            @Override
            public void onReceive(int source, MemorySegment message) {
                received.add(message.toArray(ValueLayout.JAVA_BYTE));
            }

            @Override
            public void onImmediate(int source, int immediate) {
            }

            @Override
            public void onComplete(long wrId, int status) {
                statuses.put(wrId, status);
            }

            @Override
            public void onPeerFailure(int peer, String reason) {
                failures.add(peer + ": " + reason);
            }
        };
        Transport transport = null;
        try {
            transport = new ShmTransportProvider().open(new TransportContext(0, 2,
                    new String[] {"localhost", "localhost"}, new FileBootstrap(kvs, jobId, 0, 2),
                    handler, Map.of(ShmConfiguration.CMA.name(), cma,
                            ShmConfiguration.LIVENESS_INTERVAL.name(), "100")));
            assertEquals(List.of(), jobFiles(jobId), "inbox files are unlinked once open returns");
            assertEquals(Boolean.parseBoolean(cma), ((ShmTransport) transport).crossMemoryAttach(),
                    String.valueOf(((ShmTransport) transport).crossMemoryAttachUnavailabilityCause()));

            byte[] message = "ping across processes".getBytes();
            for (int i = 0; i < 100; i++) {
                while (transport.endpoint(1).send(MemorySegment.ofArray(new byte[] {(byte) i}),
                        MemorySegment.ofArray(message)) != PostStatus.OK) {
                    transport.progress();
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (received.size() < 100 && System.nanoTime() < deadline) {
                transport.progress();
            }
            assertEquals(100, received.size(), "echoes; child output: " + childLog(kvs));
            for (int i = 0; i < 100; i++) {
                assertEquals((byte) i, received.get(i)[0]);
                assertArrayEquals(message, java.util.Arrays.copyOfRange(received.get(i), 1, 1 + message.length));
            }

            // the echo of a message sent while armed wakes this rank's wait source across processes
            org.verbatim.spi.WaitSource source = transport.waitSource();
            String cause = ((ShmTransport) transport).eventFdUnavailabilityCause();
            assertEquals(source.fd() < 0, cause != null, String.valueOf(cause));
            assertTrue(source.arm());
            while (transport.endpoint(1).send(MemorySegment.ofArray(new byte[] {(byte) 100}),
                    MemorySegment.ofArray(message)) != PostStatus.OK) {
                Thread.onSpinWait();
            }
            long slept = System.nanoTime();
            source.sleep(TimeUnit.SECONDS.toNanos(20));
            source.disarm();
            assertTrue(System.nanoTime() - slept < TimeUnit.SECONDS.toNanos(10),
                    "woken by the peer's echo (eventfd: " + (cause == null) + ")");
            while (received.size() < 101) {
                transport.progress();
            }

            FileBootstrap bootstrap = new FileBootstrap(kvs, jobId, 0, 2);
            String[] memory = bootstrap.get("peer.memory").split(":");
            long address = Long.parseLong(memory[0]);
            long key = Long.parseLong(memory[1]);
            MemorySegment local = java.lang.foreign.Arena.ofAuto().allocate(64, 8);
            child.destroyForcibly();
            assertTrue(child.waitFor(10, TimeUnit.SECONDS));
            long killed = System.nanoTime();
            // with CMA the write meets ESRCH and reports the peer; without, liveness finds it
            assertEquals(PostStatus.OK, transport.endpoint(1).write(local, address, key, 7));
            while ((failures.isEmpty() || !statuses.containsKey(7L))
                    && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(5)) {
                transport.progress();
                Thread.sleep(1);
            }
            assertEquals(1, failures.size(), "the dead peer is reported");
            assertEquals(org.verbatim.spi.CompletionStatus.PEER_GONE, statuses.get(7L),
                    "the write to the dead peer completes with PEER_GONE");
            assertEquals(PostStatus.OK, transport.endpoint(1).read(local, address, key, 8));
            transport.progress();
            assertEquals(org.verbatim.spi.CompletionStatus.PEER_GONE, statuses.get(8L));
            assertTrue(failures.get(0).startsWith("1: "), failures.get(0));
            assertTrue(failures.get(0).contains("gone"), failures.get(0));
            assertEquals(List.of(), jobFiles(jobId), "nothing left in /dev/shm");
        } finally {
            child.destroyForcibly();
            if (transport != null) {
                transport.close();
            }
        }
        assertEquals(List.of(), jobFiles(jobId));
    }

    private static String childLog(Path kvs) {
        try {
            return Files.readString(kvs.resolve("child.log"));
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static List<Path> jobFiles(String jobId) throws IOException {
        try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
            return files.filter(p -> p.getFileName().toString().startsWith("verbatim-" + jobId + "-"))
                    .toList();
        }
    }
}
