package org.verbatim.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.verbatim.bootstrap.JobSecret;

/**
 * One mpirun job: N local rank processes, their PMI server, output forwarding and the failure
 * policy. The job ends at the first failure (non-zero exit, death by signal, exit without PMI
 * finalize after PMI init, abort, timeout): mpirun names the rank, stops the others (SIGTERM,
 * then SIGKILL after a grace period) and exits with the failure's status.
 *
 * <p>Over several hosts, the serving mpirun ({@code --listen}) starts its {@code --ranks} and
 * waits for the others' ends as the joined mpiruns ({@code --join}, {@link JoinLink}) report
 * them; a failure anywhere, or a joined mpirun lost, ends the job everywhere: the serving mpirun
 * announces the end and its status, and each joined one stops its ranks and exits with it.
 */
public final class Job {
    /** Exit status when the job exceeds {@code --timeout}, as timeout(1) uses. */
    public static final int TIMEOUT_STATUS = 124;
    private static final long TERM_GRACE_MILLIS = 2_000;

    private LaunchOptions options;
    /** The job's secret was made here (not given): a serving mpirun prints it for --join. */
    private final boolean secretMade;
    private RemoteStarts.Plan remotePlan;
    private RemoteStarts remotes;
    /** Ranks started elsewhere that have ended (serving side). */
    private final boolean[] remoteEnded;
    private final IntFunction<List<String>> commands;
    private final OutputStream out;
    private final OutputStream err;
    private final PrintStream messages;
    private final Path shmDir;
    private String jobId;
    private final boolean stdinToRankZero;

    private final Object lock = new Object();
    private final List<Process> processes = new ArrayList<>();
    private volatile PmiServer pmi;
    private int running;
    /** Ranks started by joined mpiruns that have not ended yet (serving side). */
    private int remoteRunning;
    private final boolean[] joined;
    private JoinLink link;
    /** Name service and spawn for this job's ranks (the serving mpirun only). */
    private LauncherServices services;
    private Spawner spawner;
    private String failure;
    /** mpirun got SIGINT (Ctrl-C): ranks dying of the same SIGINT are not failures to report. */
    private boolean interrupted;
    private int status;

    /**
     * @param command the command every rank runs (see {@link RankCommand})
     * @param out where the ranks' stdout goes
     * @param err where the ranks' stderr and mpirun's own messages go
     * @param shmDir where the ranks' shared-memory files live (/dev/shm)
     * @param stdinToRankZero rank 0 reads mpirun's stdin (the others read /dev/null)
     */
    public Job(LaunchOptions options, List<String> command, OutputStream out, OutputStream err, Path shmDir,
            boolean stdinToRankZero) {
        this(options, rankCommands(command), out, err, shmDir, stdinToRankZero);
    }

    /**
     * A job whose ranks run different commands (the AOT training job: only rank 0 writes the
     * cache).
     *
     * @param commands the command of each rank
     */
    public Job(LaunchOptions options, IntFunction<List<String>> commands, OutputStream out, OutputStream err,
            Path shmDir, boolean stdinToRankZero) {
        this.secretMade = options.secret() == null;
        this.options = secretMade ? options.withSecret(JobSecret.generate()) : options;
        this.stdinToRankZero = stdinToRankZero;
        this.commands = commands;
        this.out = out;
        this.err = err;
        this.messages = new PrintStream(err, true, StandardCharsets.UTF_8);
        this.shmDir = shmDir;
        this.jobId = "vb" + ProcessHandle.current().pid() + "x"
                + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000000, Integer.MAX_VALUE));
        this.joined = new boolean[options.ranks()];
        this.remoteEnded = new boolean[options.ranks()];
        this.remoteRunning = options.ranks() - options.localRanks();
    }

    private static IntFunction<List<String>> rankCommands(List<String> command) {
        List<String> copy = List.copyOf(command);
        return rank -> copy;
    }

    /** Starts the ranks of {@code plan}'s hosts over ssh once the PMI service is up (call before run). */
    void startRemotely(RemoteStarts.Plan plan) {
        this.remotePlan = plan;
    }

    /** The PMI kvsname given to the ranks, which the shm transport uses in its file names. */
    public String jobId() {
        return jobId;
    }

    /** Runs the job to its end; returns mpirun's exit status. */
    public int run() throws IOException, InterruptedException {
        List<Thread> pumps = new ArrayList<>();
        Thread cleanupOnSignal = new Thread(this::emergencyStop, "mpirun-shutdown");
        Runtime.getRuntime().addShutdownHook(cleanupOnSignal);
        Runnable restoreSigint = Interrupts.onSigint(this::interrupt);
        PmiServer server = null;
        try {
            String pmiPort;
            if (options.join() != null) {
                link = JoinLink.join(options.join(), options.firstRank(), options.lastRank(), options.ranks(),
                        options.secret());
                jobId = link.kvsName();
                pmiPort = options.join();
                link.onChange(() -> {
                    synchronized (lock) {
                        lock.notifyAll();
                    }
                });
            } else {
                spawner = new Spawner(options, jobId, commands.apply(options.firstRank()), out, err, new SpawnHooks());
                services = new LauncherServices(options, spawner);
                java.net.InetSocketAddress bind = options.listen() != null ? socketAddress(options.listen())
                        : remotePlan != null ? new java.net.InetSocketAddress(0) : null;
                server = bind == null ? new PmiServer(options.ranks(), jobId, options.secret(), new Listener())
                        : new PmiServer(options.ranks(), jobId, options.secret(), new Listener(), bind);
                if (options.listen() != null) {
                    messages.println("mpirun: serving PMI for " + options.ranks() + " ranks on "
                            + server.listenAddress() + "; ranks " + options.firstRank() + "-"
                            + options.lastRank() + " start here, the others join with "
                            + (secretMade ? JobSecret.VARIABLE + "=" + options.secret() + " " : "") + "mpirun --join");
                }
                this.pmi = server;
                pmiPort = server.portAddress();
                if (remotePlan != null) {
                    String joinAddress = hostPort(remotePlan.pmiHost(), server.port());
                    remotes = RemoteStarts.start(remotePlan.hosts(), options, remotePlan.ssh(),
                            remotePlan.remoteMpirun(), joinAddress, remotePlan.settings(), out, err, this::sshEnded);
                }
            }
            synchronized (lock) {
                for (int rank = options.firstRank(); rank <= options.lastRank() && failure == null; rank++) {
                    Process p = start(rank, pmiPort, pumps);
                    processes.add(p);
                    running++;
                    int r = rank;
                    p.onExit().thenAccept(done -> exited(r, done));
                }
                long deadline = options.timeoutSeconds() > 0
                        ? System.nanoTime() + TimeUnit.SECONDS.toNanos(options.timeoutSeconds()) : Long.MAX_VALUE;
                while (failure == null && !over()) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        fail("mpirun: the job did not finish within " + options.timeoutSeconds()
                                + " s (--timeout); ranks still running: " + stillRunning(), TIMEOUT_STATUS);
                        break;
                    }
                    lock.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 1_000)));
                }
                if (failure != null && !failure.isEmpty() && !options.secretFromStdin()) {
                    // (an mpirun that another started over ssh leaves the report to that one)
                    messages.println(failure);
                }
            }
            stopAll();
            if (spawner != null) {
                pumps.addAll(spawner.pumps());
            }
            for (Thread t : pumps) {
                t.join(5_000);
            }
            if (server != null) {
                synchronized (lock) {
                    server.endJoined(status);
                }
            }
            if (remotes != null) {
                remotes.finish(REMOTE_END_GRACE_MILLIS);
            }
        } catch (IOException e) {
            stopAll();
            if (remotes != null) {
                remotes.kill();
            }
            throw e;
        } finally {
            if (server != null) {
                server.close();
            }
            if (services != null) {
                services.close();
            }
            if (link != null) {
                link.close();
            }
            List<String> removed = ShmCleaner.clean(shmDir, jobId);
            if (!removed.isEmpty() && failure == null) {
                messages.println("mpirun: removed shared-memory files the ranks left behind: " + removed);
            }
            restoreSigint.run();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanupOnSignal);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or will run; it is harmless after a normal end
            }
        }
        synchronized (lock) {
            return status;
        }
    }

    /**
     * True when the job is over for this mpirun (caller holds lock): every rank ended, here and,
     * when serving, at the joined mpiruns; a joined mpirun also waits for the announced end.
     */
    private boolean over() {
        if (link == null) {
            return running == 0 && remoteRunning == 0 && (spawner == null || spawner.running() == 0);
        }
        int end = link.endStatus();
        if (end > 0) {
            fail("mpirun: the job ended with status " + end + " at the serving mpirun (" + options.join()
                    + "); stopping the ranks here", end);
            return true;
        }
        if (end == 0) {
            return running == 0; // the last exits here are being reported
        }
        if (link.lost()) {
            fail("mpirun: lost the serving mpirun at " + options.join() + " before the job ended; stopping "
                    + "the ranks here", 1);
            return true;
        }
        return false;
    }

    /** How long the mpiruns on other hosts get to end after the job did, before their ssh is killed. */
    private static final long REMOTE_END_GRACE_MILLIS = 10_000;

    private static String hostPort(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** An ssh to another host ended: a failure unless that host's ranks had all ended. */
    private void sshEnded(Placement.HostRanks host, int code) {
        synchronized (lock) {
            boolean ranksEnded = true;
            for (int r = host.first(); r <= host.last(); r++) {
                ranksEnded &= remoteEnded[r];
            }
            if (!ranksEnded && failure == null) {
                fail("mpirun: ssh to " + host.host() + " (ranks " + host.first() + "-" + host.last()
                        + ") ended with status " + code + " before those ranks did"
                        + (code == 255 ? " (ssh could not connect or log in; its message is above)" : "")
                        + "; ending the job", code == 0 ? 1 : code);
            }
            lock.notifyAll();
        }
    }

    private static java.net.InetSocketAddress socketAddress(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new java.net.InetSocketAddress(hostPort.substring(0, colon),
                Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private Process start(int rank, String pmiPort, List<Thread> pumps) throws IOException {
        List<String> command = commands.apply(rank);
        ProcessBuilder pb = new ProcessBuilder(CoreBinding.wrap(options, rank, command));
        Map<String, String> env = pb.environment();
        options.environment().forEach((k, v) -> {
            if (v == null) {
                env.remove(k); // a variable the job must not inherit from mpirun (the AOT training's)
            } else {
                env.put(k, v);
            }
        });
        env.remove("PMI_FD");
        env.put(JobSecret.VARIABLE, options.secret());
        if (options.workDir() != null) {
            pb.directory(new java.io.File(options.workDir()));
        }
        env.put("PMI_PORT", pmiPort);
        env.put("PMI_ID", Integer.toString(rank));
        env.put("PMI_RANK", Integer.toString(rank));
        env.put("PMI_SIZE", Integer.toString(options.ranks()));
        pb.redirectInput(rank == 0 && stdinToRankZero ? ProcessBuilder.Redirect.INHERIT
                : ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException("cannot start rank " + rank + " (" + String.join(" ", command) + "): " + e.getMessage(), e);
        }
        pumps.add(OutputPump.start(p.getInputStream(), out, rank, options.tagOutput(), "rank-" + rank + "-out"));
        pumps.add(OutputPump.start(p.getErrorStream(), err, rank, options.tagOutput(), "rank-" + rank + "-err"));
        return p;
    }

    private void exited(int rank, Process p) {
        int code = p.exitValue();
        if (link != null) {
            link.reportExit(rank, code, describeRank(rank, p) + " on " + org.verbatim.bootstrap.HostInfo.hostName()
                    + " " + describeExit(code));
        }
        synchronized (lock) {
            running--;
            awaitOwnSigint(code);
            if (failure == null) {
                if (code == CONFIG_STATUS) {
                    fail("", code); // the rank printed the one line that says which setting
                } else if (code != 0) {
                    fail("mpirun: " + describeRank(rank, p) + " " + describeExit(code) + "; ending the job", code);
                } else if (pmi != null && pmi.initialized(rank) && !pmi.finalized(rank)) {
                    fail("mpirun: " + describeRank(rank, p) + " exited with status 0 without finalizing PMI "
                            + "(MPI_Finalize missing?); ending the job", 1);
                }
            }
            lock.notifyAll();
        }
    }

    /**
     * Ctrl-C sends SIGINT to mpirun and its ranks at once; a rank may end before mpirun's own
     * handler has run. Waits (caller holds lock) up to {@value #SIGINT_GRACE_MILLIS} ms for it,
     * so that the job ends with "interrupted" rather than "rank N was killed by signal 2".
     */
    private void awaitOwnSigint(int code) {
        long end = System.currentTimeMillis() + SIGINT_GRACE_MILLIS;
        while (code == 128 + 2 && !interrupted && failure == null) {
            long left = end - System.currentTimeMillis();
            if (left <= 0) {
                return;
            }
            try {
                lock.wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** mpirun's SIGINT handler: one line, then the usual end of a failed job. */
    private void interrupt() {
        synchronized (lock) {
            interrupted = true;
            fail("mpirun: interrupted (SIGINT, Ctrl-C); ending the job", 128 + 2);
        }
    }

    /** A rank's status for a configuration value its setting refuses (sysexits' EX_CONFIG). */
    static final int CONFIG_STATUS = 78;
    private static final long SIGINT_GRACE_MILLIS = 1000;

    /** "was killed by signal 9 (SIGKILL)" or "exited with status 3". */
    static String describeExit(int code) {
        // Java reports a death by signal s as 128 + s.
        if (code > 128 && code < 128 + 65) {
            int signal = code - 128;
            return "was killed by signal " + signal + signalName(signal);
        }
        return "exited with status " + code;
    }

    private static String signalName(int s) {
        String name = switch (s) {
            case 1 -> "SIGHUP";
            case 2 -> "SIGINT";
            case 3 -> "SIGQUIT";
            case 4 -> "SIGILL";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 8 -> "SIGFPE";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 13 -> "SIGPIPE";
            case 14 -> "SIGALRM";
            case 15 -> "SIGTERM";
            default -> null;
        };
        return name == null ? "" : " (" + name + ")";
    }

    private static String describeRank(int rank, Process p) {
        return "rank " + rank + " (pid " + p.pid() + ")";
    }

    private void fail(String message, int code) {
        // caller holds lock
        if (failure == null) {
            failure = message;
            status = code == 0 ? 1 : code;
            lock.notifyAll();
        }
    }

    private String stillRunning() {
        List<Integer> ranks = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            if (processes.get(i).isAlive()) {
                ranks.add(options.firstRank() + i);
            }
        }
        String here = ranks.toString();
        return remoteRunning > 0 ? here + " here and " + remoteRunning + " on joined hosts" : here;
    }

    /**
     * SIGTERM to every rank still alive and its descendants, SIGKILL after the grace period.
     * Signals go through the ProcessHandle: Process.destroy() would also close the rank's output
     * pipes, losing what it wrote just before (an abort's reason, a failing rank's last lines).
     */
    private void stopAll() throws InterruptedException {
        List<Process> all;
        synchronized (lock) {
            all = new ArrayList<>(processes);
        }
        if (spawner != null) {
            all.addAll(spawner.processes());
        }
        for (Process p : all) {
            if (p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.toHandle().destroy();
            }
        }
        long deadline = System.currentTimeMillis() + TERM_GRACE_MILLIS;
        for (Process p : all) {
            long left = deadline - System.currentTimeMillis();
            if (left > 0) {
                p.waitFor(left, TimeUnit.MILLISECONDS);
            }
        }
        for (Process p : all) {
            if (p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.toHandle().destroyForcibly();
            }
        }
        for (Process p : all) {
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** mpirun itself got SIGINT or SIGTERM: take the ranks and their files down with it. */
    private void emergencyStop() {
        List<Process> all;
        synchronized (lock) {
            all = new ArrayList<>(processes);
        }
        if (spawner != null) {
            all.addAll(spawner.processes());
        }
        for (Process p : all) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        if (remotes != null) {
            remotes.kill();
        }
        ShmCleaner.clean(shmDir, jobId);
    }

    /** MPI_ERR_PROC_ABORTED: the aborting rank saw another rank die. */
    private static final int PEER_ABORTED = 74;
    /** How long an abort caused by a dead peer waits for that peer's exit to be seen here. */
    private static final long PEER_EXIT_GRACE_MILLIS = 2000;

    /**
     * A rank that aborts because it saw a peer die (over shm it notices within milliseconds)
     * often reaches us before the dead rank's exit does: wait briefly for another local rank to
     * end, so that the job ends naming the rank that died and with its status, not the abort.
     */
    private void awaitAnotherExit(int aborting) {
        List<Process> others;
        synchronized (lock) {
            others = new ArrayList<>();
            for (int i = 0; i < processes.size(); i++) {
                if (i + options.firstRank() != aborting) {
                    others.add(processes.get(i));
                }
            }
        }
        long deadline = System.currentTimeMillis() + PEER_EXIT_GRACE_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            for (Process p : others) {
                if (!p.isAlive()) {
                    try {
                        Thread.sleep(50); // let the exit watcher record it first
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return;
                }
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private final class Listener implements PmiServer.Listener {
        @Override
        public void abort(int rank, int code) {
            if (code == PEER_ABORTED) {
                awaitAnotherExit(rank);
            }
            synchronized (lock) {
                int i = rank - options.firstRank();
                String who = i >= 0 && i < processes.size() ? describeRank(rank, processes.get(i))
                        : rank >= 0 ? "rank " + rank : "a rank";
                fail("mpirun: " + who + " called abort with code " + code + "; ending the job", code);
            }
        }

        @Override
        public String joined(int first, int last, String from) {
            synchronized (lock) {
                if (!options.serving()) {
                    return "this mpirun does not serve other hosts (no --listen or --host)";
                }
                for (int r = first; r <= last; r++) {
                    if (r >= options.ranks() || options.isLocal(r) || joined[r]) {
                        return "rank " + r + (r >= options.ranks() ? " is outside the job"
                                : options.isLocal(r) ? " runs on the serving host" : " joined already");
                    }
                }
                for (int r = first; r <= last; r++) {
                    joined[r] = true;
                }
                return null;
            }
        }

        @Override
        public void remoteExit(int rank, int code, String what) {
            synchronized (lock) {
                remoteRunning--;
                remoteEnded[rank] = true;
                if (failure == null) {
                    if (code != 0) {
                        fail("mpirun: " + what + "; ending the job", code);
                    } else if (pmi != null && pmi.initialized(rank) && !pmi.finalized(rank)) {
                        fail("mpirun: " + what + " without finalizing PMI (MPI_Finalize missing?); ending the job", 1);
                    }
                }
                lock.notifyAll();
            }
        }

        @Override
        public void joinLost(int first, int last, String from) {
            synchronized (lock) {
                fail("mpirun: lost the joined mpirun on " + from + " that runs ranks " + first + "-" + last
                        + " (its connection closed); ending the job", 1);
            }
        }

        @Override
        public void refused(String from, String why) {
            messages.println("mpirun: refused a PMI connection from " + from + " (" + why + "): it did not "
                    + "present this job's secret; the job goes on");
        }

        @Override
        public String command(int rank, String cmd, Map<String, String> fields) {
            return services == null ? null : services.command(cmd, fields);
        }

        @Override
        public int universeSize(int jobSize) {
            return services == null ? jobSize : services.universeSize(jobSize);
        }

        @Override
        public void protocolError(int rank, String message) {
            synchronized (lock) {
                fail("mpirun: PMI error from " + (rank >= 0 ? "rank " + rank : "a rank") + ": " + message + "; ending the job", 1);
            }
        }
    }

    /** How the children of MPI_Comm_spawn end the job (see {@link Spawner}). */
    private final class SpawnHooks implements Spawner.Hooks {
        @Override
        public void failed(String message, int status) {
            synchronized (lock) {
                fail(message, status);
            }
        }

        @Override
        public void changed() {
            synchronized (lock) {
                lock.notifyAll();
            }
        }
    }
}
