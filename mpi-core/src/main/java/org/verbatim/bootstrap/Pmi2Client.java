package org.verbatim.bootstrap;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link Bootstrap} speaking the PMI-2 wire protocol over the inherited descriptor in
 * {@code PMI_FD}, as Slurm's {@code srun --mpi=pmi2} serves it. After a PMI-1 style line
 * {@code cmd=init pmi_version=2 pmi_subversion=0}, every message is a frame: its length in six
 * characters (decimal, left-aligned, space-padded), then {@code cmd=NAME;key=value;...;}. Uses
 * fullinit, job-getid, kvs-put, kvs-fence (which both publishes the puts and synchronises, as
 * {@link #barrier} must), kvs-get, abort and finalize. Keys and values are encoded with
 * {@link PmiWire#encode}, which leaves no ';' or '=' in them.
 */
public final class Pmi2Client implements Bootstrap {
    private static final int LENGTH_FIELD = 6;
    private static final int MAX_FRAME = 1024 * 1024;
    /** PMI-2's limits (the same as Slurm's and MPICH's). */
    private static final int KEY_MAX = 64;
    private static final int VALUE_MAX = 1024;

    private final FdPmiChannel channel;
    private final int rank;
    private final int size;
    private final int appNum;
    private final String jobId;
    private boolean closed;
    private LauncherWatch watch;

    private Pmi2Client(FdPmiChannel channel, int rank, int size, int appNum, String jobId) {
        this.channel = channel;
        this.rank = rank;
        this.size = size;
        this.appNum = appNum;
        this.jobId = jobId;
    }

    /**
     * True when {@code env} is a PMI-2 launch: {@code PMI_FD} from Slurm's pmi2 plugin
     * ({@code SLURM_MPI_TYPE=pmi2}).
     */
    public static boolean isAvailable(Map<String, String> env) {
        return env.containsKey("PMI_FD") && env.getOrDefault("SLURM_MPI_TYPE", "").startsWith("pmi2");
    }

    /** Connects over {@code PMI_FD} and runs init, fullinit and job-getid. */
    public static Pmi2Client connect(Map<String, String> env) {
        FdPmiChannel channel;
        try {
            channel = new FdPmiChannel(Integer.parseInt(env.get("PMI_FD").trim()));
        } catch (NumberFormatException e) {
            throw new BootstrapException("PMI_FD is not a number: " + env.get("PMI_FD"), e);
        }
        try {
            channel.writeLine(PmiWire.format("init", "pmi_version", "2", "pmi_subversion", "0"));
            Map<String, String> init = PmiWire.parse(channel.readLine());
            if (!"response_to_init".equals(init.get("cmd")) || !"0".equals(init.get("rc"))) {
                throw new BootstrapException("the process manager refused PMI-2 over " + channel.describe() + ": " + init);
            }
            String pmiRank = env.getOrDefault("PMI_RANK", "0").trim();
            Map<String, String> full = call(channel, "fullinit-response", "fullinit", "pmijobid",
                    env.getOrDefault("PMI_JOBID", ""), "pmirank", pmiRank, "threaded", "FALSE");
            int rank = intField(full, "rank");
            int size = intField(full, "size");
            int appNum = full.containsKey("appnum") ? intField(full, "appnum") : 0;
            if (size < 1 || rank < 0 || rank >= size) {
                throw new BootstrapException("bad rank " + rank + " of size " + size + " from the process manager");
            }
            String jobId = call(channel, "job-getid-response", "job-getid").get("jobid");
            if (jobId == null || jobId.isEmpty()) {
                throw new BootstrapException("the process manager gave no job id");
            }
            return new Pmi2Client(channel, rank, size, Math.max(0, appNum), jobId);
        } catch (IOException | RuntimeException e) {
            channel.close();
            if (e instanceof BootstrapException be) {
                throw be;
            }
            throw new BootstrapException("PMI-2 start-up over " + channel.describe() + " failed: " + e.getMessage(), e);
        }
    }

    /** Ends this process when the process manager is gone (see {@link PmiClient#watchLauncher()}). */
    public synchronized void watchLauncher() {
        if (watch == null && !closed) {
            watch = LauncherWatch.start(channel.fd(), channel.describe(), LauncherWatch.exitRank(rank), true);
        }
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int appNum() {
        return appNum;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public synchronized void put(String key, String value) {
        String k = checked("key", key, KEY_MAX);
        String v = checked("value for key '" + key + "'", value, VALUE_MAX);
        request("kvs-put-response", "kvs-put", "key", k, "value", v);
    }

    @Override
    public synchronized String get(String key) {
        Map<String, String> reply = request("kvs-get-response", "kvs-get", "jobid", jobId, "srcid", "-1", "key",
                checked("key", key, KEY_MAX));
        if (!"TRUE".equalsIgnoreCase(reply.get("found")) || !reply.containsKey("value")) {
            return null;
        }
        return PmiWire.decode(reply.get("value"));
    }

    @Override
    public synchronized void barrier() {
        request("kvs-fence-response", "kvs-fence");
    }

    @Override
    public synchronized void abort(int code, String message) {
        if (watch != null) {
            watch.stop();
        }
        AbortNotice.print(rank, code, message);
        try {
            send(channel, frame("abort", "isworld", "TRUE", "msg", PmiWire.encode(message)));
        } catch (IOException e) {
            throw new BootstrapException("abort: cannot reach the process manager over " + channel.describe(), e);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (watch != null) {
            watch.stop();
        }
        try {
            call(channel, "finalize-response", "finalize");
        } catch (IOException e) {
            throw new BootstrapException("finalize over " + channel.describe() + " failed: " + e.getMessage(), e);
        } finally {
            channel.close();
        }
    }

    private static String checked(String what, String s, int max) {
        String e = PmiWire.encode(s);
        if (e.length() > max) {
            throw new IllegalArgumentException("PMI-2 " + what + " is " + e.length() + " bytes encoded; the limit is " + max);
        }
        return e;
    }

    private Map<String, String> request(String expected, String cmd, String... keyValues) {
        if (closed) {
            throw new IllegalStateException("PMI client already finalized");
        }
        try {
            return call(channel, expected, cmd, keyValues);
        } catch (IOException e) {
            throw new BootstrapException(cmd + " over " + channel.describe() + " failed: " + e.getMessage(), e);
        }
    }

    /** Sends one command and reads its response; a non-zero rc is a BootstrapException. */
    private static Map<String, String> call(FdPmiChannel channel, String expected, String cmd, String... keyValues)
            throws IOException {
        send(channel, frame(cmd, keyValues));
        Map<String, String> reply = parse(receive(channel));
        if (!expected.equals(reply.get("cmd"))) {
            throw new BootstrapException("expected cmd=" + expected + " from the process manager over "
                    + channel.describe() + ", got: " + reply);
        }
        String rc = reply.getOrDefault("rc", "0");
        if (!rc.equals("0")) {
            throw new BootstrapException(cmd + " refused by the process manager over " + channel.describe() + ": rc="
                    + rc + (reply.containsKey("errmsg") ? " " + reply.get("errmsg") : ""));
        }
        return reply;
    }

    /** {@code cmd=NAME;k=v;...;} */
    static String frame(String cmd, String... keyValues) {
        StringBuilder b = new StringBuilder("cmd=").append(cmd).append(';');
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            b.append(keyValues[i]).append('=').append(keyValues[i + 1]).append(';');
        }
        return b.toString();
    }

    private static void send(FdPmiChannel channel, String body) throws IOException {
        int length = body.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        channel.write(String.format("%-" + LENGTH_FIELD + "d", length) + body);
    }

    private static String receive(FdPmiChannel channel) throws IOException {
        String field = channel.readBytes(LENGTH_FIELD).strip();
        int length;
        try {
            length = Integer.parseInt(field);
        } catch (NumberFormatException e) {
            throw new IOException("bad PMI-2 frame length '" + field + "' from " + channel.describe());
        }
        if (length < 0 || length > MAX_FRAME) {
            throw new IOException("PMI-2 frame of " + length + " bytes from " + channel.describe());
        }
        return channel.readBytes(length);
    }

    /** {@code cmd=NAME;k=v;...;} into its pairs (a value may hold "=", never ";"). */
    static Map<String, String> parse(String body) {
        Map<String, String> m = new HashMap<>();
        for (String pair : body.split(";")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                m.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return m;
    }

    private static int intField(Map<String, String> reply, String key) {
        try {
            return Integer.parseInt(reply.get(key).trim());
        } catch (RuntimeException e) {
            throw new BootstrapException("bad or missing " + key + " from the process manager: " + reply);
        }
    }

    /** Name service and spawn are PMI-1 commands of Verbatim's mpirun or Hydra; PMI-2 here has neither. */
    @Override
    public java.util.Map<String, String> service(String cmd, String... keyValues) {
        throw new UnsupportedOperationException("the process manager speaks PMI-2 (Slurm's srun or MPICH's "
                + "PMI-2), over which Verbatim offers no " + cmd + "; start the job with bin/mpirun or mpiexec.hydra");
    }
}
