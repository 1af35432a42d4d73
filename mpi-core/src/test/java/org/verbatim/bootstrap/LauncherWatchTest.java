package org.verbatim.bootstrap;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A rank notices that its process manager is gone, and only then. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LauncherWatchTest {

    @Test
    void theEndOfAnInheritedPmiDescriptorIsSeenWithinAPollPeriod() throws Throwable {
        int[] fds = SocketPair.open();
        FakePmiServer server = new FakePmiServer(0, 1);
        server.stopAfterStartUp = true;
        FdPmiChannel serverSide = new FdPmiChannel(fds[1]);
        server.serveInBackground(serverSide);
        PmiClient c = PmiClient.connect(Map.of("PMI_FD", Integer.toString(fds[0]), "PMI_RANK", "0", "PMI_SIZE", "1"));
        CompletableFuture<String> gone = new CompletableFuture<>();
        c.watchLauncher(gone::complete, false);
        server.join();
        Thread.sleep(3 * LauncherWatch.POLL_MILLIS);
        assertFalse(gone.isDone(), "fired while the process manager was still there");
        long start = System.nanoTime();
        serverSide.close(); // the process manager dies: its end of the connection closes
        String reason = gone.get(5, TimeUnit.SECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(reason.contains("PMI connection, PMI_FD " + fds[0] + ", closed"), reason);
        assertTrue(millis < 1000, "seen after " + millis + " ms");
    }

    @Test
    void theEndOfAPmiPortConnectionIsSeen() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            server.hangUpOnBarrier = true;
            String port = server.listen();
            PmiClient c = PmiClient.connect(Map.of("PMI_PORT", port, "PMI_ID", "0"));
            CompletableFuture<String> gone = new CompletableFuture<>();
            c.watchLauncher(gone::complete, false);
            assertThrows(BootstrapException.class, c::barrier); // the server hangs up here
            String reason = gone.get(5, TimeUnit.SECONDS);
            assertTrue(reason.contains("PMI connection, PMI_PORT " + port + ", closed"), reason);
        }
    }

    @Test
    void finalizeStopsTheWatchBeforeTheServerHangsUp() throws Exception {
        try (FakePmiServer server = new FakePmiServer(0, 1)) {
            String port = server.listen();
            PmiClient c = PmiClient.connect(Map.of("PMI_PORT", port, "PMI_ID", "0"));
            CompletableFuture<String> gone = new CompletableFuture<>();
            c.watchLauncher(gone::complete, false);
            c.close(); // the fake server closes the connection right after finalize_ack
            server.join();
            Thread.sleep(3 * LauncherWatch.POLL_MILLIS);
            assertFalse(gone.isDone(), () -> "fired after finalize: " + gone.getNow(""));
        }
    }

    @Test
    void aRefusedPmiPortSaysWhy() {
        BootstrapException e = assertThrows(BootstrapException.class,
                () -> PmiClient.connect(Map.of("PMI_PORT", "127.0.0.1:1", "PMI_ID", "0")));
        assertTrue(e.getMessage().contains("cannot connect to the process manager at 127.0.0.1:1: Connection refused"),
                e.getMessage());
    }
}
