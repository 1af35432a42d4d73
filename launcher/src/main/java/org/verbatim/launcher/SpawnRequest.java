package org.verbatim.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.verbatim.bootstrap.PmiWire;

/**
 * A rank's {@code cmd=spawn} (MPI_Comm_spawn, MPI_Comm_spawn_multiple), decoded:
 *
 * <pre>
 * cmd=spawn count=N port=P  and for each command i < N:
 *     cmd&lt;i&gt;=C argc&lt;i&gt;=A arg&lt;i&gt;_&lt;j&gt;=... maxprocs&lt;i&gt;=M [wdir&lt;i&gt;=D] [path&lt;i&gt;=D] [host&lt;i&gt;=H]
 *     [hostfile&lt;i&gt;=F]
 * </pre>
 *
 * Values are encoded as {@link PmiWire#encode} does. {@code port} is the parents' port, which
 * the children connect to from MPI_Init.
 */
record SpawnRequest(List<App> apps, String port) {
    /** One command of the request and how many copies of it to start. */
    record App(String command, List<String> args, int maxprocs, String wdir, String path, String host,
               String hostfile) {
        /**
         * Where this command's copies run, each host with its ranks counted from 0 (by slot, as
         * mpirun places a --host job; more copies than slots go round the hosts again); empty
         * when neither host nor hostfile was given (this host). IllegalArgumentException for a
         * host list or file that cannot be read.
         */
        List<Placement.HostRanks> placement() {
            List<HostList.Entry> hosts = new ArrayList<>();
            if (host != null) {
                HostList.parseHostOption(host, hosts);
            } else if (hostfile != null) {
                HostList.parseHostfile(java.nio.file.Path.of(hostfile), hosts);
            }
            return hosts.isEmpty() ? List.of() : Placement.bySlot(HostList.merged(hosts), maxprocs, true);
        }
    }

    /** The children in all. */
    int total() {
        return apps.stream().mapToInt(App::maxprocs).sum();
    }

    /** Decodes the fields; IllegalArgumentException says what is wrong. */
    static SpawnRequest parse(Map<String, String> m) {
        int count = number(m, "count");
        if (count < 1) {
            throw new IllegalArgumentException("spawn of no command");
        }
        List<App> apps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String cmd = text(m, "cmd" + i);
            if (cmd == null || cmd.isBlank()) {
                throw new IllegalArgumentException("command " + i + " is missing");
            }
            int argc = number(m, "argc" + i);
            List<String> args = new ArrayList<>();
            for (int j = 0; j < argc; j++) {
                String a = text(m, "arg" + i + "_" + j);
                if (a == null) {
                    throw new IllegalArgumentException("argument " + j + " of command " + i + " is missing");
                }
                args.add(a);
            }
            int n = number(m, "maxprocs" + i);
            if (n < 1) {
                throw new IllegalArgumentException("maxprocs " + n + " for " + cmd);
            }
            apps.add(new App(cmd, args, n, text(m, "wdir" + i), text(m, "path" + i), text(m, "host" + i),
                    text(m, "hostfile" + i)));
        }
        String port = text(m, "port");
        if (port == null) {
            throw new IllegalArgumentException("no parent port");
        }
        return new SpawnRequest(apps, port);
    }

    private static String text(Map<String, String> m, String key) {
        String v = m.get(key);
        return v == null ? null : PmiWire.decode(v);
    }

    private static int number(Map<String, String> m, String key) {
        String v = text(m, key);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a number: " + v);
        }
    }
}
