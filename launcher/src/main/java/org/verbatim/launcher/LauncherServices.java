package org.verbatim.launcher;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.verbatim.bootstrap.HostInfo;
import org.verbatim.bootstrap.PmiWire;

/**
 * The commands mpirun serves beyond PMI-1, for its job and the worlds the job spawns: the name
 * service (kept here, or forwarded to the {@code bin/verbatim-nameserver} given by
 * {@code --nameserver} or {@code verbatim.launcher.nameserver}) and spawn ({@link Spawner}). Names the
 * job published and did not withdraw are withdrawn from a shared name server when the job ends.
 */
final class LauncherServices {
    /** The variable (set by {@code mpirun --nameserver} or -x) naming a shared name server. */
    static final String NAMESERVER = "VERBATIM_LAUNCHER_NAMESERVER";

    private final NameTable localNames = new NameTable();
    private final NameServerClient nameServer;
    private final Spawner spawner;
    private final Set<String> published = ConcurrentHashMap.newKeySet();

    LauncherServices(LaunchOptions options, Spawner spawner) {
        this.nameServer = nameServer(options);
        this.spawner = spawner;
        spawner.services = this;
    }

    /**
     * The link to the shared name server the options name, or null when mpirun keeps the names
     * itself. Throws IllegalArgumentException when a name server is given without its secret
     * (the ranks' environment, -x, first; then mpirun's own).
     */
    static NameServerClient nameServer(LaunchOptions options) {
        String ns = options.environment().get(NAMESERVER);
        if (ns == null) {
            ns = LauncherSettings.NAMESERVER.get(LauncherSettings.current());
        }
        if (ns == null || ns.isBlank()) {
            return null;
        }
        Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.putAll(options.environment());
        String secret = NameServerSecret.of(env);
        if (secret == null) {
            throw new IllegalArgumentException("the name server " + ns.trim() + " needs its secret: "
                    + "--nameserver-secret-file FILE (the --secret-file of verbatim-nameserver) or "
                    + NameServerSecret.VARIABLE + " (the value it printed)");
        }
        return new NameServerClient(ns.trim(), secret);
    }

    /** The reply to {@code cmd}, or null when it is not one of these commands. */
    String command(String cmd, Map<String, String> fields) {
        if (NameTable.serves(cmd)) {
            String reply = nameServer != null ? nameServer.forward(cmd, fields) : localNames.handle(cmd, fields);
            if (reply.contains(" rc=0")) {
                String key = fields.get("service") + " " + fields.get("port");
                if (cmd.equals("publish_name")) {
                    published.add(key);
                } else if (cmd.equals("unpublish_name")) {
                    published.remove(key);
                }
            }
            return reply;
        }
        if (cmd.equals("spawn")) {
            try {
                String kvs = spawner.spawn(SpawnRequest.parse(fields));
                return PmiWire.format("spawn_result", "rc", "0", "kvsname", kvs);
            } catch (IllegalArgumentException | java.io.IOException e) {
                return PmiWire.format("spawn_result", "rc", "-1", "msg", PmiWire.encode(e.getMessage()));
            }
        }
        return null;
    }

    /**
     * MPI_UNIVERSE_SIZE: how many processes the job may have, spawned ones included: the online
     * cores of this host (where mpirun starts children), at least the job's size, as Open MPI
     * counts one slot per core.
     */
    int universeSize(int jobSize) {
        return Math.max(jobSize, HostInfo.onlineCores());
    }

    /** Withdraws the names still published from a shared name server; closes the child worlds. */
    void close() {
        if (nameServer != null) {
            for (String key : published) {
                String[] f = key.split(" ", 2);
                nameServer.forward("unpublish_name", Map.of("service", f[0], "port", f[1]));
            }
        }
        spawner.close();
    }
}
