package org.verbatim.launcher;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts the worlds of MPI_Comm_spawn beside this mpirun: each a new PMI space ({@link
 * ChildWorld}, kvsname {@code <job>c<n>}, so the job's shared-memory clean-up covers it) whose
 * ranks get {@code PMI_PARENT_PORT} and connect to their parents from MPI_Init. A child that
 * fails (non-zero status, signal, abort, exit without finalize) ends the whole job with a
 * message naming it; the job is over when the children have ended too.
 *
 * <p>The command {@code java} means this launcher's JDK with {@code --enable-native-access} and
 * the parents' class path in {@code CLASSPATH} (an explicit {@code -cp} in the arguments wins),
 * and with the parents' AOT cache when they have one and the children keep that class path.
 */
final class Spawner {
    /** What the job hears from its children. */
    interface Hooks {
        /** A child failed: end the job with {@code message} and {@code status}. */
        void failed(String message, int status);

        /** A child ended (the job may be over). */
        void changed();
    }

    private final LaunchOptions options;
    private final String javaExecutable;
    private final String parentClassPath;
    /** The parents' AOT cache options (the -cp/-jar shorthand), which children of "java" share. */
    private final List<String> aotOptions;
    private final OutputStream out;
    private final OutputStream err;
    private final Hooks hooks;
    private final String jobId;
    private final List<ChildWorld> worlds = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();
    private final RemoteChildren remote;
    private int running;
    /**
     * The thread that starts every child. Linux delivers a rank's parent-death signal
     * (LauncherWatch's PR_SET_PDEATHSIG) when the thread that forked it ends, not the process:
     * a PMI connection thread ends with its rank's finalize, which would kill the children.
     */
    private final java.util.concurrent.ExecutorService starter =
            java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "mpirun-spawn");
                t.setDaemon(true);
                return t;
            });
    /** Serves the children's own commands (names, nested spawns); set by LauncherServices. */
    LauncherServices services;

    Spawner(LaunchOptions options, String jobId, List<String> parentCommand, OutputStream out,
            OutputStream err, Hooks hooks) {
        this.options = options;
        this.jobId = jobId;
        this.javaExecutable = RankCommand.fromSystem().javaExecutable();
        this.parentClassPath = classPathOf(parentCommand);
        this.aotOptions = parentCommand.stream()
                .filter(w -> w.startsWith("-XX:AOTCache=") || w.equals(RankCommand.QUIET_AOT)).toList();
        this.out = out;
        this.err = err;
        this.hooks = hooks;
        this.remote = new RemoteChildren(options);
    }

    private static String classPathOf(List<String> command) {
        for (int i = 0; i + 1 < command.size(); i++) {
            String w = command.get(i);
            if (w.equals("-cp") || w.equals("-classpath") || w.equals("--class-path")) {
                return command.get(i + 1);
            }
        }
        return System.getenv("CLASSPATH");
    }

    /** Children still running. */
    synchronized int running() {
        return running;
    }

    /** Every child process started. */
    synchronized List<Process> processes() {
        List<Process> all = new ArrayList<>();
        for (ChildWorld w : worlds) {
            for (Process p : w.processes) {
                if (p != null) {
                    all.add(p); // null: a rank on another host, whose ssh is below
                }
            }
        }
        all.addAll(remote.processes());
        return all;
    }

    /** Output forwarders of the children (joined at the end of the job). */
    synchronized List<Thread> pumps() {
        return new ArrayList<>(pumps);
    }

    /**
     * Starts the children of {@code request}; returns the new world's kvsname. IOException or
     * IllegalArgumentException say why nothing (or not everything) could start.
     */
    String spawn(SpawnRequest request) throws IOException {
        try {
            return starter.submit(() -> spawnHere(request)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while spawning", e);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof IllegalArgumentException bad) {
                throw bad;
            }
            throw new IOException(String.valueOf(e.getCause()), e.getCause());
        }
    }

    private synchronized String spawnHere(SpawnRequest request) throws IOException {
        List<List<Placement.HostRanks>> placements = new ArrayList<>();
        boolean elsewhere = false;
        for (SpawnRequest.App app : request.apps()) {
            List<Placement.HostRanks> placed = app.placement(); // an unknown host or bad file: refused
            boolean someHere = placed.isEmpty();
            for (Placement.HostRanks h : placed) {
                boolean here = HostList.isLocal(h.host());
                someHere |= here;
                elsewhere |= !here;
            }
            if (someHere && app.wdir() != null && !Files.isDirectory(Path.of(app.wdir()))) {
                throw new IllegalArgumentException("wdir " + app.wdir() + " is not a directory");
            }
            placements.add(placed);
        }
        String kvs = jobId + "c" + worlds.size();
        int size = request.total();
        // a world with ranks elsewhere is served on every address, as a --host job is
        PmiServer pmi = !elsewhere ? new PmiServer(size, kvs, options.secret(), new ChildListener(kvs))
                : new PmiServer(size, kvs, options.secret(), new ChildListener(kvs), new java.net.InetSocketAddress(0));
        pmi.preset(RemoteChildren.PARENT_PORT_KEY, request.port());
        ChildWorld world = new ChildWorld(kvs, pmi, size);
        worlds.add(world);
        int base = 0;
        for (int a = 0; a < request.apps().size(); a++) {
            SpawnRequest.App app = request.apps().get(a);
            List<Placement.HostRanks> placed = placements.get(a);
            if (placed.isEmpty()) {
                placed = List.of(new Placement.HostRanks("localhost", 0, app.maxprocs() - 1));
            }
            for (Placement.HostRanks h : placed) {
                int first = base + h.first();
                int last = base + h.last();
                if (HostList.isLocal(h.host())) {
                    for (int rank = first; rank <= last; rank++) {
                        world.appNums.add(a);
                        start(world, rank, size, app, request.port());
                    }
                    continue;
                }
                for (int rank = first; rank <= last; rank++) {
                    world.appNums.add(a);
                    world.processes.add(null);
                    world.commands.add(("(on " + h.host() + ") " + app.command() + " "
                            + String.join(" ", app.args())).trim());
                    world.remote[rank] = true;
                    running++;
                }
                remote.start(h.host(), first, last, size, app, parentClassPath,
                        RemoteChildren.pmiHostToward(h.host()) + ":" + pmi.port(), out, err,
                        (host, status) -> sshEnded(world, host, status));
            }
            base += app.maxprocs();
        }
        return kvs;
    }

    /** The ssh of a child world's remote ranks ended: a failure unless those ranks had ended. */
    private void sshEnded(ChildWorld world, Placement.HostRanks h, int code) {
        boolean ranksEnded = true;
        synchronized (this) {
            for (int r = h.first(); r <= h.last(); r++) {
                ranksEnded &= world.remoteEnded[r];
            }
        }
        if (!ranksEnded) {
            hooks.failed("mpirun: ssh to " + h.host() + " (spawned ranks " + h.first() + "-" + h.last() + " of world "
                    + world.kvsName + ") ended with status " + code + " before those ranks did"
                    + (code == 255 ? " (ssh could not connect or log in; its message is above)" : "")
                    + "; ending the job", code == 0 ? 1 : code);
        }
        hooks.changed();
    }

    private void start(ChildWorld world, int rank, int size, SpawnRequest.App app, String port)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        if (app.command().equals("java")) {
            cmd.add(javaExecutable);
            cmd.add(RankCommand.NATIVE_ACCESS);
            boolean ownClassPath = app.args().stream().anyMatch(a -> a.equals("-cp")
                    || a.equals("-classpath") || a.equals("--class-path") || a.equals("-jar"));
            if (!ownClassPath) {
                cmd.addAll(aotOptions); // the cache holds only with the parents' class path
            }
            if (parentClassPath != null) {
                env.put("CLASSPATH", parentClassPath);
            }
        } else {
            cmd.add(resolve(app.command(), app.path()));
        }
        cmd.addAll(app.args());
        options.environment().forEach((k, v) -> {
            if (v == null) {
                env.remove(k);
            } else {
                env.put(k, v);
            }
        });
        env.remove("PMI_FD");
        env.put("PMI_PORT", world.pmi.portAddress());
        env.put(org.verbatim.bootstrap.JobSecret.VARIABLE, options.secret());
        env.put("PMI_ID", Integer.toString(rank));
        env.put("PMI_RANK", Integer.toString(rank));
        env.put("PMI_SIZE", Integer.toString(size));
        env.put("PMI_PARENT_PORT", port);
        if (app.wdir() != null) {
            pb.directory(new File(app.wdir()));
        }
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        world.commands.add(String.join(" ", app.command(), String.join(" ", app.args())).trim());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot start " + world.describe(rank) + ": " + e.getMessage(), e);
        }
        world.processes.add(p);
        running++;
        pumps.add(OutputPump.start(p.getInputStream(), out, rank, options.tagOutput(), world.kvsName + "-" + rank + "-out"));
        pumps.add(OutputPump.start(p.getErrorStream(), err, rank, options.tagOutput(), world.kvsName + "-" + rank + "-err"));
        p.onExit().thenAccept(done -> exited(world, rank, done));
    }

    private static String resolve(String command, String path) {
        if (path == null || command.contains("/")) {
            return command;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return command;
    }

    private void exited(ChildWorld world, int rank, Process p) {
        int code = p.exitValue();
        String failure = null;
        int status = code;
        synchronized (this) {
            running--;
            if (code != 0) {
                failure = "mpirun: " + world.describe(rank) + " " + Job.describeExit(code) + "; ending the job";
            } else if (world.pmi.initialized(rank) && !world.pmi.finalized(rank)) {
                failure = "mpirun: " + world.describe(rank) + " exited with status 0 without finalizing PMI "
                        + "(MPI_Finalize missing?); ending the job";
                status = 1;
            }
        }
        if (failure != null) {
            hooks.failed(failure, status);
        }
        hooks.changed();
    }

    /** Closes the children's PMI servers. */
    synchronized void close() {
        starter.shutdown();
        for (ChildWorld w : worlds) {
            w.pmi.close();
        }
    }

    /** The PMI listener of one child world. */
    private final class ChildListener implements PmiServer.Listener {
        private final String kvs;

        ChildListener(String kvs) {
            this.kvs = kvs;
        }

        private ChildWorld world() {
            synchronized (Spawner.this) {
                for (ChildWorld w : worlds) {
                    if (w.kvsName.equals(kvs)) {
                        return w;
                    }
                }
                return null;
            }
        }

        @Override
        public void abort(int rank, int code) {
            ChildWorld w = world();
            hooks.failed("mpirun: " + (w == null ? "spawned rank " + rank : w.describe(rank))
                    + " called abort with code " + code + "; ending the job", code);
        }

        @Override
        public void protocolError(int rank, String message) {
            hooks.failed("mpirun: PMI error from spawned rank " + rank + " of world " + kvs + ": "
                    + message + "; ending the job", 1);
        }

        @Override
        public String command(int rank, String cmd, Map<String, String> fields) {
            return services == null ? null : services.command(cmd, fields);
        }

        @Override
        public int appNum(int rank) {
            ChildWorld w = world();
            return w == null || rank >= w.appNums.size() ? 0 : w.appNums.get(rank);
        }

        @Override
        public int universeSize(int jobSize) {
            return services == null ? jobSize : services.universeSize(jobSize);
        }

        @Override
        public String joined(int first, int last, String from) {
            ChildWorld w = world();
            synchronized (Spawner.this) {
                for (int r = first; r <= last; r++) {
                    if (w == null || r < 0 || r >= w.remote.length || !w.remote[r] || w.joined[r]) {
                        return "rank " + r + " of world " + kvs + " is not one this world starts elsewhere";
                    }
                }
                for (int r = first; r <= last; r++) {
                    w.joined[r] = true;
                }
                return null;
            }
        }

        @Override
        public void remoteExit(int rank, int code, String what) {
            ChildWorld w = world();
            String failure = null;
            int status = code;
            synchronized (Spawner.this) {
                if (w == null || rank < 0 || rank >= w.remote.length || !w.remote[rank] || w.remoteEnded[rank]) {
                    return;
                }
                w.remoteEnded[rank] = true;
                running--;
                if (code != 0) {
                    failure = "mpirun: " + w.describe(rank) + ": " + what + "; ending the job";
                } else if (w.pmi.initialized(rank) && !w.pmi.finalized(rank)) {
                    failure = "mpirun: " + w.describe(rank) + " exited with status 0 without finalizing PMI "
                            + "(MPI_Finalize missing?); ending the job";
                    status = 1;
                }
            }
            if (failure != null) {
                hooks.failed(failure, status);
            }
            hooks.changed();
        }

        @Override
        public void joinLost(int first, int last, String from) {
            hooks.failed("mpirun: lost the mpirun on " + from + " that runs spawned ranks " + first + "-" + last
                    + " of world " + kvs + " (its connection closed); ending the job", 1);
        }
    }
}
