package org.verbatim.mpitests;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.verbatim.launcher.NameServer;

/**
 * {@link TwoJobsProgram}: two mpiruns at once, pointed at one {@link NameServer} (as
 * {@code bin/verbatim-nameserver} runs it), connect through a published port; the peers of the
 * other job are reached over tcp, connected on first use.
 */
@Timeout(300)
class TwoJobsTest {
    @ParameterizedTest
    @CsvSource({"1, 1", "2, 2", "1, 3"})
    void separateMpirunsConnectThroughTheNameServer(int serverRanks, int clientRanks)
            throws Exception {
        try (NameServer ns = new NameServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            List<String> env = List.of("VERBATIM_LAUNCHER_NAMESERVER=" + ns.address());
            // own threads: the common pool may have one thread on a 2-core machine, and the two
            // jobs must run at once
            ExecutorService both = Executors.newFixedThreadPool(2);
            Future<MpiJob> server = both.submit(() -> run(serverRanks, env, "server"));
            Future<MpiJob> client = both.submit(() -> run(clientRanks, env, "client"));
            MpiJob s = server.get();
            MpiJob c = client.get();
            both.shutdown();
            s.assertAllPassed(serverRanks, 10);
            c.assertAllPassed(clientRanks, 10);
        }
    }

    private static MpiJob run(int ranks, List<String> env, String side) {
        try {
            return MpiJob.run(ranks, 150, env, "128m", TwoJobsProgram.class, side);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
