package org.verbatim.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Spawned ranks on another host (info key {@code host} naming it): started as the ranks of a
 * {@code --host} job are ({@link RemoteStarts}), by {@code ssh HOST '<verbatim>/bin/mpirun -np N
 * --ranks A-B --join ADDR:PORT --secret-stdin ... -- command args'}, where ADDR:PORT is the
 * child world's own PMI server and the job's secret goes through ssh's stdin. The parents' port
 * does not go on that command line either (other users of either host could read it there):
 * the child world's key-value space holds it under {@value #PARENT_PORT_KEY}, and the
 * children's {@code PMI_PARENT_PORT} is {@value #FROM_PMI}, which tells MPI_Init to fetch it.
 */
final class RemoteChildren {
    /** The key of the child world's key-value space that holds the parents' port. */
    static final String PARENT_PORT_KEY = "verbatim-parent-port";
    /** The value of PMI_PARENT_PORT that says: fetch the port from PMI. */
    static final String FROM_PMI = "pmi:" + PARENT_PORT_KEY;

    private final LaunchOptions options;
    private final List<RemoteStarts> starts = new ArrayList<>();

    RemoteChildren(LaunchOptions options) {
        this.options = options;
    }

    /** The address of this host that {@code host} reaches (verbatim.launcher.pmi-address, else the route). */
    static String pmiHostToward(String host) {
        String pmiHost = LauncherSettings.PMI_ADDRESS.get(LauncherSettings.current());
        return pmiHost.isBlank() ? RouteAddress.toward(host) : pmiHost;
    }

    /**
     * Starts ranks {@code first..last} of a child world of {@code size} ranks on {@code host},
     * joined to that world's PMI server at {@code joinAddress}.
     */
    void start(String host, int first, int last, int size, SpawnRequest.App app, String parentClassPath,
               String joinAddress, OutputStream out, OutputStream err, RemoteStarts.Watcher watcher)
            throws IOException {
        String remoteMpirun = options.prefix() != null ? Path.of(options.prefix(), "bin", "mpirun").toString()
                : System.getProperty("verbatim.launcher.mpirun");
        if (remoteMpirun == null) {
            throw new IllegalArgumentException("host " + host + ": this mpirun was not started by bin/mpirun, so "
                    + "the path of mpirun on the other host is unknown (give mpirun --prefix DIR)");
        }
        Map<String, String> env = new LinkedHashMap<>(options.environment());
        env.put("PMI_PARENT_PORT", FROM_PMI);
        List<String> program = new ArrayList<>();
        if (app.command().equals("java")) {
            boolean ownClassPath = app.args().stream().anyMatch(a -> a.equals("-cp")
                    || a.equals("-classpath") || a.equals("--class-path") || a.equals("-jar"));
            if (!ownClassPath && parentClassPath != null) {
                env.put("CLASSPATH", parentClassPath); // the same paths there, as for --host jobs
            }
            program.add("java");
        } else {
            String dir = app.path() == null ? null : app.path().split(java.io.File.pathSeparator)[0];
            program.add(dir == null || app.command().contains("/") ? app.command()
                    : Path.of(dir, app.command()).toString());
        }
        program.addAll(app.args());
        LaunchOptions child = new LaunchOptions(size, options.tagOutput(), false, false, env,
                options.timeoutSeconds(), options.binding(), program, first, last, null, joinAddress, false,
                List.of(), false, app.wdir() != null ? app.wdir() : options.workDir(), options.prefix(), true,
                options.secret());
        List<String> ssh = List.of(LauncherSettings.SSH.get(LauncherSettings.current()).strip().split("\\s+"));
        Map<String, String> settings = new TreeMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("VERBATIM_") && !Mpirun.CARRIED_NOT.contains(k)) {
                settings.put(k, v);
            }
        });
        RemoteStarts s = RemoteStarts.start(List.of(new Placement.HostRanks(host, first, last)), child, ssh,
                remoteMpirun, joinAddress, settings, out, err, watcher);
        synchronized (this) {
            starts.add(s);
        }
    }

    /** The ssh processes (killed with the children when the job ends). */
    synchronized List<Process> processes() {
        List<Process> all = new ArrayList<>();
        for (RemoteStarts s : starts) {
            all.addAll(s.processes());
        }
        return all;
    }
}
