package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class PmiServerTest {
    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final PmiServer.Listener listener = new PmiServer.Listener() {
        @Override
        public void abort(int rank, int code) {
            events.add("abort " + rank + " " + code);
        }

        @Override
        public void protocolError(int rank, String message) {
            events.add("error " + rank + " " + message);
        }

        @Override
        public void refused(String from, String why) {
            events.add("refused " + why);
        }
    };

    /** A raw PMI-1 conversation over a socket, as a rank would hold it. */
    private static final class Rank implements AutoCloseable {
        final Socket socket;
        final BufferedReader in;
        final OutputStream out;

        /** A connection that has presented the job's secret. */
        Rank(PmiServer server) throws IOException {
            this(server, SECRET);
            assertEquals("cmd=auth_result rc=0", in.readLine());
        }

        /** A connection that sends {@code secret} first (null: nothing). */
        Rank(PmiServer server, String secret) throws IOException {
            String[] hp = server.portAddress().split(":");
            socket = new Socket(hp[0], Integer.parseInt(hp[1]));
            socket.setSoTimeout(10_000);
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            out = socket.getOutputStream();
            if (secret != null) {
                send("cmd=auth secret=" + secret);
            }
        }

        void send(String line) throws IOException {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        String ask(String line) throws IOException {
            send(line);
            return in.readLine();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void servesTheStartUpSequenceLikeHydra() throws Exception {
        try (PmiServer server = new PmiServer(3, "kvs_test", SECRET, listener); Rank r = new Rank(server)) {
            r.send("cmd=initack pmiid=1");
            assertEquals("cmd=initack", r.in.readLine());
            assertEquals("cmd=set size=3", r.in.readLine());
            assertEquals("cmd=set rank=1", r.in.readLine());
            assertEquals("cmd=set debug=0", r.in.readLine());
            assertFalse(server.initialized(1));
            assertEquals("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0", r.ask("cmd=init pmi_version=1 pmi_subversion=1"));
            assertTrue(server.initialized(1));
            assertEquals("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024", r.ask("cmd=get_maxes"));
            assertEquals("cmd=appnum appnum=0", r.ask("cmd=get_appnum"));
            assertEquals("cmd=my_kvsname kvsname=kvs_test", r.ask("cmd=get_my_kvsname"));
            assertEquals("cmd=universe_size size=3", r.ask("cmd=get_universe_size"));
            assertEquals("cmd=error rc=-1 msg=unknown_command_frobnicate", r.ask("cmd=frobnicate"));
            assertFalse(server.finalized(1));
            assertEquals("cmd=finalize_ack", r.ask("cmd=finalize"));
            assertTrue(server.finalized(1));
        }
        assertEquals(List.of(), events);
    }

    @Test
    void refusesAnotherPmiVersion() throws Exception {
        try (PmiServer server = new PmiServer(1, "k", SECRET, listener); Rank r = new Rank(server)) {
            assertEquals("cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=-1", r.ask("cmd=init pmi_version=2 pmi_subversion=0"));
        }
    }

    @Test
    void putAndGetShareOneKeySpace() throws Exception {
        try (PmiServer server = new PmiServer(2, "kvs", SECRET, listener); Rank a = new Rank(server); Rank b = new Rank(server)) {
            assertEquals("cmd=put_result rc=0 msg=success", a.ask("cmd=put kvsname=kvs key=ep0 value=shm%20x"));
            assertEquals("cmd=get_result rc=0 msg=success value=shm%20x", b.ask("cmd=get kvsname=kvs key=ep0"));
            assertEquals("cmd=get_result rc=-1 msg=key_ep1_not_found", b.ask("cmd=get kvsname=kvs key=ep1"));
            assertEquals("cmd=put_result rc=-1 msg=unknown_kvsname", a.ask("cmd=put kvsname=other key=k value=v"));
            assertEquals("cmd=put_result rc=-1 msg=value_too_long", a.ask("cmd=put kvsname=kvs key=k value=" + "v".repeat(1025)));
            assertEquals("cmd=put_result rc=-1 msg=bad_key", a.ask("cmd=put kvsname=kvs key=" + "k".repeat(65) + " value=v"));
        }
    }

    @Test
    void mgetAnswersManyKeysInOneLine() throws Exception {
        try (PmiServer server = new PmiServer(2, "kvs", SECRET, listener); Rank a = new Rank(server); Rank b = new Rank(server)) {
            assertEquals("cmd=put_result rc=0 msg=success", a.ask("cmd=put kvsname=kvs key=h0 value=x%20y"));
            assertEquals("cmd=put_result rc=0 msg=success", b.ask("cmd=put kvsname=kvs key=h1 value=z"));
            assertEquals("cmd=mget_result rc=0 v0=x%20y v2=z", b.ask("cmd=mget kvsname=kvs k0=h0 k1=none k2=h1"));
            assertEquals("cmd=mget_result rc=0", b.ask("cmd=mget kvsname=kvs"));
            assertEquals("cmd=mget_result rc=-1 msg=unknown_kvsname", b.ask("cmd=mget kvsname=other k0=h0"));
            StringBuilder many = new StringBuilder("cmd=mget kvsname=kvs");
            for (int i = 0; i <= PmiServer.MGET_MAX_KEYS; i++) {
                many.append(" k").append(i).append("=h0");
            }
            assertEquals("cmd=mget_result rc=-1 msg=more_than_" + PmiServer.MGET_MAX_KEYS + "_keys", a.ask(many.toString()));
        }
        assertEquals(List.of(), events);
    }

    @Test
    void barrierReleasesOnlyWhenEveryRankHasEntered() throws Exception {
        try (PmiServer server = new PmiServer(3, "kvs", SECRET, listener);
                Rank a = new Rank(server); Rank b = new Rank(server); Rank c = new Rank(server)) {
            a.send("cmd=barrier_in");
            b.send("cmd=barrier_in");
            a.socket.setSoTimeout(300);
            assertThrows(SocketTimeoutException.class, a.in::readLine, "barrier released with 2 of 3 ranks");
            a.socket.setSoTimeout(10_000);
            c.send("cmd=barrier_in");
            assertEquals("cmd=barrier_out", a.in.readLine());
            assertEquals("cmd=barrier_out", b.in.readLine());
            assertEquals("cmd=barrier_out", c.in.readLine());
            // the barrier is reusable
            for (Rank r : List.of(c, b, a)) {
                r.send("cmd=barrier_in");
            }
            for (Rank r : List.of(a, b, c)) {
                assertEquals("cmd=barrier_out", r.in.readLine());
            }
        }
    }

    @Test
    void abortIsReportedWithTheRankAndCode() throws Exception {
        try (PmiServer server = new PmiServer(4, "kvs", SECRET, listener); Rank r = new Rank(server)) {
            r.send("cmd=initack pmiid=2");
            for (int i = 0; i < 4; i++) {
                r.in.readLine();
            }
            r.send("cmd=abort exitcode=9");
            long end = System.currentTimeMillis() + 10_000;
            while (events.isEmpty() && System.currentTimeMillis() < end) {
                Thread.sleep(10);
            }
            assertEquals(List.of("abort 2 9"), events);
        }
    }

    @Test
    void badInitackIsAProtocolError() throws Exception {
        try (PmiServer server = new PmiServer(2, "kvs", SECRET, listener); Rank r = new Rank(server)) {
            r.send("cmd=initack pmiid=7");
            assertEquals(null, r.in.readLine());
            assertEquals(1, events.size());
            assertTrue(events.getFirst().startsWith("error -1 initack with bad pmiid"), events::toString);
        }
    }

    @Test
    void aConnectionWithoutTheJobsSecretIsRefusedAndChangesNothing() throws Exception {
        try (PmiServer server = new PmiServer(2, "kvs", SECRET, listener); Rank owner = new Rank(server)) {
            assertEquals("cmd=put_result rc=0 msg=success", owner.ask("cmd=put kvsname=kvs key=ep0 value=mine"));
            // no secret: its first command is refused, the connection closed, the key space untouched
            try (Rank stranger = new Rank(server, null)) {
                assertEquals("cmd=auth_result rc=-1 msg=not_this_job", stranger.ask("cmd=put kvsname=kvs key=ep0 value=evil"));
                assertEquals(null, stranger.in.readLine());
            }
            try (Rank stranger = new Rank(server, null)) {
                assertEquals("cmd=auth_result rc=-1 msg=not_this_job", stranger.ask("cmd=abort exitcode=3"));
            }
            try (Rank guesser = new Rank(server, "0123456789abcdef0123456789abcdee")) {
                assertEquals("cmd=auth_result rc=-1 msg=not_this_job", guesser.in.readLine());
                guesser.send("cmd=get kvsname=kvs key=ep0");
                assertEquals(null, guesser.in.readLine());
            }
            assertEquals("cmd=get_result rc=0 msg=success value=mine", owner.ask("cmd=get kvsname=kvs key=ep0"));
            long end = System.currentTimeMillis() + 5_000;
            while (events.size() < 3 && System.currentTimeMillis() < end) {
                Thread.sleep(10);
            }
            // each refusal is recorded by the server's thread for that connection, after its answer:
            // the three may be recorded in any order
            assertEquals(List.of("refused its first command was 'abort', not auth",
                    "refused its first command was 'put', not auth", "refused wrong secret"),
                    events.stream().sorted().toList());
        }
    }
}
