package org.verbatim.mpitests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The point-to-point and collective programs with every rank pair over transport-tcp
 * ({@code verbatim.core.transports=tcp}: sockets on loopback, RDMA emulated), and a peer killed
 * mid-transfer: the job ends naming it, promptly.
 */
@Timeout(300)
class TcpTest {
    private static final String TCP = "VERBATIM_CORE_TRANSPORTS=tcp";
    private static final String PROTO_INFO = "VERBATIM_CORE_PROTO_INFO=true";

    /** With MPI_Init's warm-up exchange over tcp first (its messages never reach the program). */
    @Test
    void pointToPointOverTcp() throws Exception {
        MpiJob job = MpiJob.run(2, 200, List.of(TCP, PROTO_INFO, "VERBATIM_TCP_EAGER_SIZE=16k",
                        "VERBATIM_CORE_WARMUP=on", "VERBATIM_CORE_WARMUP_TRACE=true"),
                "640m", PointToPointProgram.class, "2", "16384", "big").assertAllPassed(2, 300);
        assertTrue(job.err().contains("rank 0 -> rank 1: transport tcp"), job::report);
        assertTrue(job.err().contains("RGET zero-copy (emulated read)"), job::report);
        assertTrue(job.err().contains("verbatim: warm-up with world rank 1 took"), job::report);
    }

    /**
     * Above tcp's eager limit (64 KiB) messages go eagerly against the receiver's credit
     * (verbatim.tcp.eager-window); a window of 256 KiB makes the program's larger messages
     * alternate between credited eager sends and the rendezvous once the credit runs out, and
     * the 64 MiB messages always take the rendezvous.
     */
    @Test
    void pointToPointWithCreditedEagerOverTcp() throws Exception {
        MpiJob job = MpiJob.run(2, 200, List.of(TCP, PROTO_INFO, "VERBATIM_TCP_EAGER_WINDOW=256k"),
                "640m", PointToPointProgram.class, "2", "65536", "big").assertAllPassed(2, 300);
        assertTrue(job.err().contains("eager <= 65536 B (<= 262144 B within a window of 262144 B)"),
                job::report);
    }

    @Test
    void collectivesOverTcpAtThreeRanks() throws Exception {
        MpiJob.run(3, 200, List.of(TCP), "256m", CollectivesProgram.class).assertAllPassed(3, 60);
    }

    /**
     * Six ranks: once a rank has more than TcpTransport.DIRECT_READ_MAX (4) connections, progress
     * goes back from reading each socket directly to the selector; the collectives (all-to-all
     * among them) connect every pair, so both ways and the switch between them are used.
     */
    @Test
    void collectivesOverTcpAtSixRanks() throws Exception {
        MpiJob.run(6, 300, List.of(TCP), "256m", CollectivesProgram.class).assertAllPassed(6, 60);
    }

    /**
     * IPv6: with verbatim.tcp.if-include naming ::1/128 the only address a rank offers is ::1 (a
     * subnet that matches nothing is an error), so the ranks can only have connected over IPv6.
     * Skipped where the loopback interface has no IPv6 address.
     */
    @Test
    void pointToPointOverIpv6Loopback() throws Exception {
        boolean ipv6 = java.net.NetworkInterface.networkInterfaces().flatMap(java.net.NetworkInterface::inetAddresses)
                .anyMatch(a -> a instanceof java.net.Inet6Address && a.isLoopbackAddress());
        org.junit.jupiter.api.Assumptions.assumeTrue(ipv6, "no ::1 on this host");
        MpiJob.run(2, 200, List.of(TCP, "VERBATIM_TCP_IF_INCLUDE=::1/128"), "256m", PointToPointProgram.class,
                "2", "65536").assertAllPassed(2, 300); // tcp's own eager limit
    }

    @Test
    void aPeerKilledMidTransferEndsTheJobNamingIt() throws Exception {
        assertKilledPeerNamed(MpiJob.run(2, 200, List.of(TCP), "256m", IbKillProgram.class));
    }

    /**
     * The same with 4 MiB frames and a 4 MiB window, so that the 1 MiB messages go as credited eager frames, read
     * from the socket straight into the posted receives or staging buffers (the
     * first four, then as the credit comes back; the rest by rendezvous): the part of a frame on
     * the wire at the death is never delivered, and the job ends naming the rank.
     */
    @Test
    void aPeerKilledMidEagerStreamEndsTheJobNamingIt() throws Exception {
        MpiJob job = MpiJob.run(2, 200, List.of(TCP, PROTO_INFO, "VERBATIM_TCP_EAGER_SIZE=4m",
                "VERBATIM_TCP_SEND_QUEUE=16m", "VERBATIM_TCP_EAGER_WINDOW=4m"), "256m", IbKillProgram.class);
        assertTrue(job.err().contains("(<= 4194304 B within a window of 4194304 B)"), job::report);
        assertKilledPeerNamed(job);
    }

    private static void assertKilledPeerNamed(MpiJob job) {
        assertTrue(job.out().contains("rank 1 dies with"), job::report);
        assertEquals(128 + 9, job.status(), job::report);
        assertTrue(Pattern.compile("rank 1 \\(pid \\d+\\) was killed by signal 9")
                .matcher(job.err()).find(), job::report);
        assertTrue(job.elapsed().compareTo(Duration.ofSeconds(120)) < 0, job::report);
        assertFalse(job.out().contains("the test must fail"), job::report);
    }
}
