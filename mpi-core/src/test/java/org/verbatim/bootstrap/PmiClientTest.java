package org.verbatim.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PmiClientTest {

    @Test
    void portModeSendsInitackAndTakesRankAndSizeFromTheServer() throws Exception {
        try (FakePmiServer server = new FakePmiServer(2, 5)) {
            String port = server.listen();
            try (PmiClient c = PmiClient.connect(Map.of("PMI_PORT", port, "PMI_ID", "2"))) {
                assertEquals(2, c.rank());
                assertEquals(5, c.size());
                assertEquals(0, c.appNum());
                assertEquals("kvs_4242_0", c.jobId());
            }
            server.join();
            assertEquals(List.of("cmd=initack pmiid=2", "cmd=init pmi_version=1 pmi_subversion=1", "cmd=get_maxes",
                    "cmd=get_appnum", "cmd=get_my_kvsname", "cmd=finalize"), server.received);
        }
    }

    @Test
    void environmentRankAndSizeWinAndNoInitackWithoutPmiId() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            String port = server.listen();
            try (PmiClient c = PmiClient.connect(Map.of("PMI_PORT", port, "PMI_RANK", "3", "PMI_SIZE", "4"))) {
                assertEquals(3, c.rank());
                assertEquals(4, c.size());
            }
            server.join();
            assertEquals("cmd=init pmi_version=1 pmi_subversion=1", server.received.getFirst());
        }
    }

    @Test
    void putGetBarrierEncodeValuesAndMissingKeysAreNull() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            String port = server.listen();
            try (PmiClient c = PmiClient.connect(Map.of("PMI_PORT", port, "PMI_ID", "0"))) {
                c.put("ep 0", "shm:/verbatim-x a=b");
                c.barrier();
                assertEquals("shm:/verbatim-x a=b", c.get("ep 0"));
                assertNull(c.get("nobody"));
                c.put("empty", "");
                assertEquals("", c.get("empty"));
            }
            server.join();
            assertTrue(server.received.contains("cmd=put kvsname=kvs_4242_0 key=ep%200 value=shm:/verbatim-x%20a%3db"),
                    server.received::toString);
            assertTrue(server.received.contains("cmd=barrier_in"));
        }
    }

    @Test
    void prefetchUnderVerbatimsMpirunFetchesManyKeysPerRequest() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            server.mget = true;
            String port = server.listen();
            Map<String, String> env = Map.of("PMI_PORT", port, "PMI_ID", "0", JobSecret.VARIABLE,
                    "0123456789abcdef0123456789abcdef");
            List<String> keys = new java.util.ArrayList<>();
            try (PmiClient c = PmiClient.connect(env)) {
                assertTrue(c.verbatimLauncher());
                for (int r = 0; r < 100; r++) {
                    keys.add("verbatim.host." + r);
                    if (r != 42) {
                        c.put("verbatim.host." + r, "node " + r % 3);
                    }
                }
                c.barrier();
                int before = server.received.size();
                c.prefetch(keys);
                assertEquals(before + 3, server.received.size(), "100 keys in requests of " + PmiClient.MGET_KEYS);
                for (int r = 0; r < 100; r++) {
                    assertEquals(r == 42 ? null : "node " + r % 3, c.get("verbatim.host." + r));
                }
                // only the key not found asked again, on its own
                assertEquals(List.of("cmd=get kvsname=kvs_4242_0 key=verbatim.host.42"),
                        server.received.subList(before + 3, server.received.size()));
                c.put("verbatim.host.0", "moved");
                c.barrier();
                assertEquals("moved", c.get("verbatim.host.0"), "a barrier drops what was fetched");
            }
            server.join();
        }
    }

    @Test
    void prefetchFallsBackToPlainGetsWhereMgetIsUnknown() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            String port = server.listen();
            Map<String, String> env = Map.of("PMI_PORT", port, "PMI_ID", "0", JobSecret.VARIABLE,
                    "0123456789abcdef0123456789abcdef");
            try (PmiClient c = PmiClient.connect(env)) {
                c.put("a", "1");
                c.barrier();
                c.prefetch(List.of("a", "b"));
                c.prefetch(List.of("a", "b"));
                assertEquals("1", c.get("a"));
                assertNull(c.get("b"));
            }
            server.join();
            assertEquals(1, server.received.stream().filter(l -> l.startsWith("cmd=mget")).count(),
                    "refused once, not asked again: " + server.received);
        }
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            server.mget = true;
            String port = server.listen();
            try (PmiClient c = PmiClient.connect(Map.of("PMI_PORT", port, "PMI_ID", "0"))) {
                c.prefetch(List.of("a"));
            }
            server.join();
            assertTrue(server.received.stream().noneMatch(l -> l.startsWith("cmd=mget")),
                    "no mget without Verbatim's mpirun (Hydra): " + server.received);
        }
    }

    @Test
    void fdModeWorksOverAnInheritedStyleDescriptor() throws Throwable {
        int[] fds = SocketPair.open();
        FakePmiServer server = new FakePmiServer(0, 1);
        FdPmiChannel serverSide = new FdPmiChannel(fds[1]);
        server.serveInBackground(serverSide);
        try (PmiClient c = PmiClient.connect(Map.of("PMI_FD", Integer.toString(fds[0]), "PMI_RANK", "1", "PMI_SIZE", "2"))) {
            assertEquals(1, c.rank());
            assertEquals(2, c.size());
            String big = "v".repeat(900) + " =\n";
            c.put("k", big);
            c.barrier();
            assertEquals(big, c.get("k"));
        }
        server.join();
        serverSide.close();
        assertEquals("cmd=init pmi_version=1 pmi_subversion=1", server.received.getFirst());
        assertEquals("cmd=finalize", server.received.getLast());
    }

    @Test
    void abortSendsTheExitCode() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            String port = server.listen();
            PmiClient c = PmiClient.connect(Map.of("PMI_PORT", port, "PMI_ID", "0"));
            c.abort(7, "test");
            server.join();
            assertEquals("cmd=abort exitcode=7", server.received.getLast());
        }
    }

    @Test
    void tooLongValueIsRefusedBeforeSending() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            server.valueMax = 16;
            String port = server.listen();
            try (PmiClient c = PmiClient.connect(Map.of("PMI_PORT", port, "PMI_ID", "0"))) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.put("k", "x".repeat(17)));
                assertTrue(e.getMessage().contains("allows 16"), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> c.put("k".repeat(65), "v"));
            }
            server.join();
            assertTrue(server.received.stream().noneMatch(l -> l.startsWith("cmd=put")), server.received::toString);
        }
    }

    @Test
    void refusedInitIsAClearError() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            server.initRc = "-1";
            String port = server.listen();
            BootstrapException e = assertThrows(BootstrapException.class,
                    () -> PmiClient.connect(Map.of("PMI_PORT", port, "PMI_ID", "0")));
            assertTrue(e.getMessage().contains("init refused"), e.getMessage());
        }
    }

    @Test
    void serverHangingUpIsAClearError() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 2)) {
            server.hangUpOnBarrier = true;
            String port = server.listen();
            PmiClient c = PmiClient.connect(Map.of("PMI_PORT", port, "PMI_ID", "0"));
            BootstrapException e = assertThrows(BootstrapException.class, c::barrier);
            assertTrue(e.getMessage().contains("closed the connection"), e.getMessage());
        }
    }

    @Test
    void missingRankAndSizeIsAClearError() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            String port = server.listen();
            BootstrapException e = assertThrows(BootstrapException.class, () -> PmiClient.connect(Map.of("PMI_PORT", port)));
            assertTrue(e.getMessage().contains("no rank/size"), e.getMessage());
        }
    }

    @Test
    void unreachableServerIsAClearError() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        BootstrapException e = assertThrows(BootstrapException.class,
                () -> PmiClient.connect(Map.of("PMI_PORT", "127.0.0.1:" + port, "PMI_ID", "0")));
        assertTrue(e.getMessage().contains("cannot connect to the process manager"), e.getMessage());
    }

    @Test
    void factoryChoosesSingletonWithoutPmiAndRefusesPmix() {
        Bootstrap b = Bootstraps.fromEnvironment(Map.of());
        assertInstanceOf(SingletonBootstrap.class, b);
        assertEquals(0, b.rank());
        assertEquals(1, b.size());
        b.put("a", "b");
        b.barrier();
        assertEquals("b", b.get("a"));
        assertNull(b.get("c"));
        assertTrue(b.jobId().matches("[A-Za-z0-9-]+"), b.jobId());
        BootstrapException e = assertThrows(BootstrapException.class,
                () -> Bootstraps.fromEnvironment(Map.of("PMIX_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2")));
        assertTrue(e.getMessage().contains("PMI-1"), e.getMessage());
    }
}
