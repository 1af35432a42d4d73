package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bin/mpirun --host localhost:2,127.0.0.2:2}: ranks 2-3 start over ssh, through a real
 * sshd that this test runs on 127.0.0.2 with keys it generates (127.0.0.2 is no interface's
 * address, so mpirun treats it as another host). Needs root (sshd) and openssh-server; skipped
 * without them.
 */
@Timeout(300)
class SshLaunchIT {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final String PROBE = MpiProbe.class.getName();
    private static Path dir;
    private static Process sshd;
    private static String sshCommand;

    @BeforeAll
    static void startSshd() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "sshd needs root");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/sshd")), "openssh-server is not installed");
        dir = Files.createTempDirectory("verbatim-sshd");
        for (String key : List.of("host", "user")) {
            exec("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve(key).toString());
        }
        Files.copy(dir.resolve("user.pub"), dir.resolve("authorized_keys"));
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Files.writeString(dir.resolve("sshd_config"), String.join("\n",
                "Port " + port, "ListenAddress 127.0.0.2", "HostKey " + dir.resolve("host"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"), "PidFile " + dir.resolve("sshd.pid"),
                "StrictModes no", "UsePAM no", "PermitRootLogin prohibit-password", "PasswordAuthentication no", ""));
        Files.createDirectories(Path.of("/run/sshd"));
        sshd = new ProcessBuilder("/usr/sbin/sshd", "-D", "-e", "-f", dir.resolve("sshd_config").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.log").toFile()).start();
        sshCommand = "ssh -p " + port + " -i " + dir.resolve("user") + " -o StrictHostKeyChecking=no"
                + " -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR";
        long end = System.currentTimeMillis() + 20_000;
        while (true) {
            List<String> probe = new ArrayList<>(List.of(sshCommand.split(" ")));
            probe.addAll(List.of("127.0.0.2", "true"));
            Process p = new ProcessBuilder(probe).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() == 0) {
                break;
            }
            if (System.currentTimeMillis() > end) {
                throw new AssertionError("the test's sshd does not take logins: " + out + "\n"
                        + Files.readString(dir.resolve("sshd.log")));
            }
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void stopSshd() {
        if (sshd != null) {
            sshd.destroy();
        }
    }

    private static void exec(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), () -> String.join(" ", cmd) + ": " + out);
    }

    private static String[] mpirun(String ssh, String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of("--host", "localhost:2,127.0.0.2:2", "--timeout", "120", "--no-aot"));
        a.addAll(List.of(args));
        return BinMpirunIT.run(ROOT, Map.of("VERBATIM_LAUNCHER_SSH", ssh), a.toArray(String[]::new));
    }

    private static String classes() {
        return Path.of("target/test-classes").toAbsolutePath().toString();
    }

    @Test
    void ranksOnTheOtherHostStartOverSshWithVariablesAndWorkingDirectory() throws Exception {
        Path wd = Files.createTempDirectory("verbatim-wd");
        String[] r = mpirun(sshCommand, "-x", "PROBE_VAR=a b'c", "--wdir", wd.toString(), "-cp", classes(), PROBE,
                "where");
        String report = String.join("\n", r);
        assertEquals("0", r[0], report);
        for (int rank = 0; rank < 4; rank++) {
            assertTrue(r[1].contains("where rank " + rank + " of 4 ssh=" + (rank >= 2) + " var=a b'c cwd=" + wd),
                    report);
        }
    }

    @Test
    void aRankKilledOnTheOtherHostEndsTheJobNamingIt() throws Exception {
        String[] r = mpirun(sshCommand, "-cp", classes(), PROBE, "kill", "3");
        String report = String.join("\n", r);
        assertTrue(r[0].equals("137") || r[0].equals("74"), report);
        assertTrue(Pattern.compile("rank 3 \\(pid \\d+\\) on \\S+ was killed by signal 9").matcher(r[2]).find(), report);
        assertEquals(1, r[2].split("rank 3 \\(pid", -1).length - 1, () -> "reported once: " + report);
    }

    @Test
    void anSshThatCannotConnectEndsTheJobWithItsStatus() throws Exception {
        String[] r = mpirun("ssh -p 1 -o BatchMode=yes -o StrictHostKeyChecking=no", "-cp", classes(), PROBE, "ring");
        String report = String.join("\n", r);
        assertEquals("255", r[0], report);
        assertTrue(r[2].contains("ssh to 127.0.0.2 (ranks 2-3) ended with status 255 before those ranks did"), report);
    }

    /** MPI_Comm_spawn with info host=127.0.0.2: the children start there over ssh and join their own world. */
    @Test
    void spawnedChildrenOnTheOtherHostStartOverSshAndConnect() throws Exception {
        String[] r = BinMpirunIT.run(ROOT, Map.of("VERBATIM_LAUNCHER_SSH", sshCommand), "-np", "2", "--timeout", "120",
                "--no-aot", "-cp", classes(), SpawnProbe.class.getName(), "parent", "127.0.0.2", "3");
        String report = String.join("\n", r);
        assertEquals("0", r[0], report);
        for (int rank = 0; rank < 3; rank++) {
            assertTrue(r[1].contains("child rank " + rank + " of 3 ssh=true cwd=/tmp parents=2"), report);
            assertTrue(r[1].contains("child rank " + rank + " sum of parents=201"), report);
        }
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(r[1].contains("parent rank " + rank + " children=3 sum of children=3"), report);
        }
        assertTrue(!r[2].contains("refused"), report);
    }

    /** A host list in the info key: placed by slot, this host's child here, the others over ssh. */
    @Test
    void spawnedChildrenSplitOverAHostListBySlot() throws Exception {
        String[] r = BinMpirunIT.run(ROOT, Map.of("VERBATIM_LAUNCHER_SSH", sshCommand), "-np", "1", "--timeout", "120",
                "--no-aot", "-cp", classes(), SpawnProbe.class.getName(), "parent", "localhost:1,127.0.0.2:2", "3");
        String report = String.join("\n", r);
        assertEquals("0", r[0], report);
        assertTrue(r[1].contains("child rank 0 of 3 ssh=false cwd=/tmp parents=1"), report);
        assertTrue(r[1].contains("child rank 1 of 3 ssh=true cwd=/tmp parents=1"), report);
        assertTrue(r[1].contains("child rank 2 of 3 ssh=true cwd=/tmp parents=1"), report);
        assertTrue(r[1].contains("parent rank 0 children=3 sum of children=3"), report);
    }

    @Test
    void aSpawnedChildFailingOnTheOtherHostEndsTheJobNamingIt() throws Exception {
        String[] r = BinMpirunIT.run(ROOT, Map.of("VERBATIM_LAUNCHER_SSH", sshCommand), "-np", "1", "--timeout", "120",
                "--no-aot", "-cp", classes(), SpawnProbe.class.getName(), "parent", "127.0.0.2", "2", "crash");
        String report = String.join("\n", r);
        assertEquals("5", r[0], report);
        assertTrue(Pattern.compile("mpirun: spawned rank 1 of world \\S+ \\(\\(on 127\\.0\\.0\\.2\\) java .*SpawnProbe child "
                + "crash\\): .*status 5.*; ending the job").matcher(r[2]).find(), report);
    }

    /** mpirun killed with SIGKILL: the other host's mpirun loses its link and ends its ranks. */
    @Test
    void killingMpirunEndsTheRanksOnTheOtherHost() throws Exception {
        List<String> cmd = new ArrayList<>(List.of("bash", ROOT.resolve("bin/mpirun").toString(), "--host",
                "localhost:2,127.0.0.2:2", "--no-aot", "-cp", classes(), PROBE, "linger"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("VERBATIM_JDK", System.getProperty("java.home"));
        pb.environment().put("VERBATIM_LAUNCHER_SSH", sshCommand);
        Process mpirun = pb.start();
        List<Long> pids = new ArrayList<>();
        StringBuilder seen = new StringBuilder();
        var in = new java.io.BufferedReader(new java.io.InputStreamReader(mpirun.getInputStream(), StandardCharsets.UTF_8));
        Pattern linger = Pattern.compile("linger rank (\\d) pid (\\d+)");
        String line;
        while (pids.size() < 4 && (line = in.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = linger.matcher(line);
            if (m.find()) {
                pids.add(Long.parseLong(m.group(2)));
            }
        }
        assertEquals(4, pids.size(), seen::toString);
        mpirun.destroyForcibly(); // SIGKILL; bin/mpirun exec's java, so this is mpirun itself
        mpirun.waitFor(10, TimeUnit.SECONDS);
        long end = System.currentTimeMillis() + 15_000;
        List<Long> alive = pids;
        while (System.currentTimeMillis() < end) {
            alive = pids.stream().filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).toList();
            if (alive.isEmpty()) {
                break;
            }
            Thread.sleep(100);
        }
        assertEquals(List.of(), alive, "ranks still running after mpirun was killed: " + seen);
    }
}
