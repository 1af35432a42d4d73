package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * other job are reached over tcp, connected on first use, or over shm when tcp is not opened.
 */
@Timeout(300)
class TwoJobsTest {
    @ParameterizedTest
    @CsvSource({"1, 1", "2, 2", "1, 3"})
    void separateMpirunsConnectThroughTheNameServer(int serverRanks, int clientRanks)
            throws Exception {
        runBoth(serverRanks, clientRanks, List.of());
    }

    /**
     * The same over shared memory alone: tcp is not opened, so the other job's processes can
     * only be reached through their shm inboxes (made late by a world of one rank); proto-info
     * shows shm for every peer of the other job and tcp for none.
     */
    @ParameterizedTest
    @CsvSource({"1, 1", "2, 2", "1, 3"})
    void separateMpirunsOnOneHostUseSharedMemory(int serverRanks, int clientRanks) throws Exception {
        MpiJob[] jobs = runBoth(serverRanks, clientRanks, List.of("VERBATIM_CORE_TRANSPORTS=shm",
                "VERBATIM_CORE_PROTO_INFO=true"));
        int[] worlds = {serverRanks, clientRanks};
        for (int j = 0; j < 2; j++) {
            MpiJob job = jobs[j];
            assertFalse(job.err().contains(": transport tcp"), job::report);
            int otherSize = worlds[1 - j];
            for (int r = 0; r < worlds[j]; r++) {
                for (int peer = worlds[j]; peer < worlds[j] + otherSize; peer++) {
                    assertTrue(job.err().contains("verbatim: rank " + r + " -> rank " + peer + ": transport shm"),
                            "rank " + r + " of the " + (j == 0 ? "server" : "client") + " to peer " + peer
                                    + " of the other job\n" + job.report());
                }
            }
        }
    }

    private static MpiJob[] runBoth(int serverRanks, int clientRanks, List<String> extra) throws Exception {
        String secret = "0123456789abcdef0123456789abcdef";
        try (NameServer ns = new NameServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), secret,
                System.err)) {
            List<String> env = new java.util.ArrayList<>(List.of("VERBATIM_LAUNCHER_NAMESERVER=" + ns.address(),
                    "VERBATIM_NAMESERVER_SECRET=" + secret));
            env.addAll(extra);
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
            return new MpiJob[] {s, c};
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
