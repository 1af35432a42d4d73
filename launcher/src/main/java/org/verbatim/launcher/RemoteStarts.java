package org.verbatim.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.verbatim.bootstrap.JobSecret;

/**
 * The mpiruns that a {@code --host}/{@code --hostfile} job starts on the other hosts, one per
 * host over ssh: {@code ssh HOST '<verbatim>/bin/mpirun -np N --ranks A-B --join ADDR:PORT
 * --secret-stdin --wdir DIR -x ... -- program'}, with the job's secret written to ssh's stdin (not
 * on a command line, where other users of that host could read it). Each joins the job as
 * {@code --join} does by hand; the serving mpirun ends them all when the job ends (and if it dies,
 * they lose their connection to it and stop their ranks). Their output is forwarded as is.
 */
final class RemoteStarts {
    /** Called when an ssh process ends while its host's ranks had not all ended. */
    interface Watcher {
        void sshEnded(Placement.HostRanks host, int status);
    }

    /**
     * What a job needs to start its ranks on other hosts.
     *
     * @param hosts the other hosts and their ranks
     * @param ssh the ssh command and its options (verbatim.launcher.ssh), the host is appended
     * @param remoteMpirun the path of bin/mpirun on the other hosts
     * @param pmiHost the address the other hosts reach this mpirun at
     * @param settings VERBATIM_* settings of mpirun's environment, carried to the other hosts
     */
    record Plan(List<Placement.HostRanks> hosts, List<String> ssh, String remoteMpirun, String pmiHost,
            Map<String, String> settings) {
    }

    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();

    private RemoteStarts() {
    }

    /**
     * Starts one ssh per host of {@code remote}.
     *
     * @param ssh the ssh command and its options (verbatim.launcher.ssh), the host is appended
     * @param remoteMpirun the path of bin/mpirun on the other hosts
     * @param joinAddress where the other hosts reach this mpirun's PMI service
     * @param settings VERBATIM_* settings of mpirun's environment, carried to the other hosts
     */
    static RemoteStarts start(List<Placement.HostRanks> remote, LaunchOptions options, List<String> ssh,
            String remoteMpirun, String joinAddress, Map<String, String> settings, OutputStream out,
            OutputStream err, Watcher watcher) throws IOException {
        RemoteStarts starts = new RemoteStarts();
        try {
            for (Placement.HostRanks h : remote) {
                List<String> command = new ArrayList<>(ssh);
                command.add(h.host());
                command.add(shellLine(remoteCommand(h, options, remoteMpirun, joinAddress, settings)));
                ProcessBuilder pb = new ProcessBuilder(command);
                pb.environment().remove(JobSecret.VARIABLE);
                Process p;
                try {
                    p = pb.start();
                } catch (IOException e) {
                    throw new IOException("cannot start " + ssh.getFirst() + " for host " + h.host() + ": "
                            + e.getMessage(), e);
                }
                starts.processes.add(p);
                try (OutputStream stdin = p.getOutputStream()) {
                    stdin.write((options.secret() + "\n").getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                    // ssh ended at once; the watcher below reports its status
                }
                starts.pumps.add(OutputPump.start(p.getInputStream(), out, -1, false, "ssh-" + h.host() + "-out"));
                starts.pumps.add(OutputPump.start(p.getErrorStream(), err, -1, false, "ssh-" + h.host() + "-err"));
                p.onExit().thenAccept(done -> watcher.sshEnded(h, done.exitValue()));
            }
        } catch (IOException e) {
            starts.kill();
            throw e;
        }
        return starts;
    }

    /** The mpirun command line run on {@code h}. */
    static List<String> remoteCommand(Placement.HostRanks h, LaunchOptions options, String remoteMpirun,
            String joinAddress, Map<String, String> settings) {
        List<String> c = new ArrayList<>(List.of(remoteMpirun, "-np", Integer.toString(options.ranks()),
                "--ranks", h.first() + "-" + h.last(), "--join", joinAddress, "--secret-stdin"));
        c.add("--wdir");
        c.add(options.workDir() != null ? options.workDir() : System.getProperty("user.dir"));
        if (options.tagOutput()) {
            c.add("--tag-output");
        }
        if (options.binding() != LaunchOptions.Binding.AUTO) {
            c.add("--bind-to");
            c.add(options.binding() == LaunchOptions.Binding.CORE ? "core" : "none");
        }
        if (options.aot() != null) {
            c.add(options.aot() ? "--aot" : "--no-aot");
        }
        settings.forEach((k, v) -> {
            if (!options.environment().containsKey(k)) {
                c.add("-x");
                c.add(k + "=" + v);
            }
        });
        options.environment().forEach((k, v) -> {
            if (v != null) {
                c.add("-x");
                c.add(k + "=" + v);
            }
        });
        c.add("--");
        c.addAll(options.program());
        return c;
    }

    /** {@code words} as one POSIX shell line, each word single-quoted. */
    static String shellLine(List<String> words) {
        StringBuilder b = new StringBuilder();
        for (String w : words) {
            if (!b.isEmpty()) {
                b.append(' ');
            }
            b.append('\'').append(w.replace("'", "'\\''")).append('\'');
        }
        return b.toString();
    }

    /**
     * Waits up to {@code graceMillis} for every ssh to end (the remote mpiruns end when the job
     * does), then kills those still running and waits for the output to be forwarded.
     */
    void finish(long graceMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
        for (Process p : processes) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                p.waitFor(left, TimeUnit.NANOSECONDS);
            }
        }
        kill();
        for (Thread t : pumps) {
            t.join(5_000);
        }
    }

    /** The ssh processes. */
    List<Process> processes() {
        return List.copyOf(processes);
    }

    /** Kills every ssh still running (mpirun itself is going down). */
    void kill() {
        for (Process p : processes) {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }
}
