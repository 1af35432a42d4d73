package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --host and --hostfile as Open MPI reads them, placement by slot, and the command run over ssh. */
class HostPlacementTest {
    private static List<HostList.Entry> hosts(String spec) {
        List<HostList.Entry> l = new ArrayList<>();
        HostList.parseHostOption(spec, l);
        return HostList.merged(l);
    }

    @Test
    void hostOptionTakesSlotCountsAndMergesRepeatedHosts() {
        assertEquals(List.of(new HostList.Entry("a", 4), new HostList.Entry("b", 1), new HostList.Entry("c", 2)),
                hosts("a:2,b,c:2,a:2"));
        assertEquals(List.of(new HostList.Entry("fe80::1", 1)), hosts("fe80::1"));
        assertThrows(IllegalArgumentException.class, () -> hosts("a:0"));
        assertThrows(IllegalArgumentException.class, () -> hosts("a,,b"));
        assertThrows(IllegalArgumentException.class, () -> hosts("a:x"));
    }

    @Test
    void hostfileLinesHaveSlotsCommentsAndMaxSlots(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("hosts");
        Files.writeString(f, """
                # the cluster
                node1 slots=4 max_slots=8
                node2            # one slot
                  node3 slots=2
                """);
        List<HostList.Entry> l = new ArrayList<>();
        HostList.parseHostfile(f, l);
        assertEquals(List.of(new HostList.Entry("node1", 4), new HostList.Entry("node2", 1),
                new HostList.Entry("node3", 2)), l);
        Files.writeString(f, "node1 cpus=4\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HostList.parseHostfile(f,
                new ArrayList<>()));
        assertTrue(e.getMessage().contains("line 1: unknown word 'cpus=4'"), e.getMessage());
        Files.writeString(f, "# nothing\n");
        assertThrows(IllegalArgumentException.class, () -> HostList.parseHostfile(f, new ArrayList<>()));
        assertThrows(IllegalArgumentException.class, () -> HostList.parseHostfile(dir.resolve("missing"),
                new ArrayList<>()));
    }

    @Test
    void ranksFillSlotsInHostOrder() {
        assertEquals(List.of(new Placement.HostRanks("a", 0, 1), new Placement.HostRanks("b", 2, 4)),
                Placement.bySlot(hosts("a:2,b:3"), 5, false));
        assertEquals(List.of(new Placement.HostRanks("a", 0, 1), new Placement.HostRanks("b", 2, 2)),
                Placement.bySlot(hosts("a:2,b:3"), 3, false));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Placement.bySlot(hosts("a:2,b:3"), 6, false));
        assertTrue(e.getMessage().contains("-np 6 needs more slots than the 5"), e.getMessage());
        // oversubscribed: the extra ranks go one per host in turn, each host's range contiguous
        assertEquals(List.of(new Placement.HostRanks("a", 0, 2), new Placement.HostRanks("b", 3, 4)),
                Placement.bySlot(hosts("a,b"), 5, true));
    }

    @Test
    void optionsDefaultTheRankCountToTheSlotsAndRefuseTheManualWayAlongside() {
        LaunchOptions o = LaunchOptions.parse(new String[] {"--host", "a:2,b:2", "-x", "K=v w", "--wdir", "/tmp",
                "true"});
        assertEquals(4, o.ranks());
        assertEquals(List.of(new HostList.Entry("a", 2), new HostList.Entry("b", 2)), o.hosts());
        assertTrue(o.serving());
        assertEquals(2, LaunchOptions.parse(new String[] {"-np", "2", "-H", "a:4", "true"}).ranks());
        assertThrows(IllegalArgumentException.class,
                () -> LaunchOptions.parse(new String[] {"--host", "a", "--listen", "0.0.0.0:1", "true"}));
        assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse(new String[] {"--prefix", "/x", "true"}));
        assertFalse(LaunchOptions.parse(new String[] {"-np", "2", "true"}).serving());
    }

    @Test
    void localHostIsRecognisedByNameAndInterfaceAddress() {
        assertTrue(HostList.isLocal("localhost"));
        assertTrue(HostList.isLocal("127.0.0.1"));
        assertTrue(HostList.isLocal(org.verbatim.bootstrap.HostInfo.hostName()));
        assertFalse(HostList.isLocal("127.0.0.2")); // loopback, but no interface carries it: started over ssh
        assertThrows(IllegalArgumentException.class, () -> HostList.isLocal("no-such-host.invalid"));
    }

    @Test
    void theRemoteCommandCarriesRanksJoinSecretChannelWorkDirAndVariables() {
        LaunchOptions o = LaunchOptions.parse(new String[] {"--host", "a:1,b:2", "-x", "K=it's", "--tag-output",
                "--no-aot", "-cp", "app.jar", "Main", "arg one"}).withSecret("s3cret");
        List<String> c = RemoteStarts.remoteCommand(new Placement.HostRanks("b", 1, 2), o, "/opt/v/bin/mpirun",
                "10.0.0.1:4000", Map.of("VERBATIM_TCP_EAGER_SIZE", "16k"));
        assertEquals(List.of("/opt/v/bin/mpirun", "-np", "3", "--ranks", "1-2", "--join", "10.0.0.1:4000",
                "--secret-stdin", "--wdir", System.getProperty("user.dir"), "--tag-output", "--no-aot",
                "-x", "VERBATIM_TCP_EAGER_SIZE=16k", "-x", "K=it's", "--", "-cp", "app.jar", "Main", "arg one"), c);
        assertFalse(c.toString().contains("s3cret"), "the secret goes by stdin, never on a command line");
        assertEquals("'a' 'it'\\''s' 'arg one'", RemoteStarts.shellLine(List.of("a", "it's", "arg one")));
    }
}
