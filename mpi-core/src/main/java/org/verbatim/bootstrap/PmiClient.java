package org.verbatim.bootstrap;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Bootstrap} speaking the PMI-1 wire protocol to a process manager: Verbatim's mpirun or
 * MPICH's Hydra ({@code mpiexec.hydra}). The connection is an inherited socket descriptor in
 * {@code PMI_FD}, or {@code PMI_PORT=host:port} with {@code PMI_ID} (then the client first sends
 * {@code cmd=initack pmiid=N} and the server answers with the rank and size, as Hydra does).
 * Rank and size come from {@code PMI_RANK}/{@code PMI_SIZE} when set, else from that answer.
 * Over {@code PMI_PORT} with {@link JobSecret#VARIABLE} set (Verbatim's mpirun sets it), the
 * client first presents the job's secret ({@code cmd=auth secret=S}).
 *
 * <p>Keys and values are encoded with {@link PmiWire#encode} so any string can be stored; a value
 * whose encoded form exceeds the server's {@code vallen_max} is refused before it is sent.
 * Calls are serialised: PMI-1 has one request in flight per connection.
 */
public final class PmiClient implements Bootstrap {
    private static final int CONNECT_TIMEOUT_MILLIS = 30_000;

    private final PmiChannel channel;
    private final int rank;
    private final int size;
    private final int appNum;
    private final String kvsName;
    private final int keyLengthMax;
    private final int valueLengthMax;
    private boolean closed;
    /** Set at start-up: the process manager took the job's secret (Verbatim's mpirun). */
    private boolean verbatimLauncher;
    private LauncherWatch watch;
    /** Values fetched by {@link #prefetch} since the last barrier (found keys only). */
    private final Map<String, String> prefetched = new HashMap<>();
    /** The process manager answered mget with an error: plain gets from then on. */
    private boolean mgetRefused;

    /**
     * Keys per {@code mget} request: Verbatim's mpirun answers at most {@value} values of up to
     * 1024 bytes in one line, which stays under {@link PmiWire#MAX_LINE}.
     */
    public static final int MGET_KEYS = 48;

    private PmiClient(PmiChannel channel, int rank, int size, int appNum, String kvsName, int keyLengthMax, int valueLengthMax) {
        this.channel = channel;
        this.rank = rank;
        this.size = size;
        this.appNum = appNum;
        this.kvsName = kvsName;
        this.keyLengthMax = keyLengthMax;
        this.valueLengthMax = valueLengthMax;
    }

    /** True if {@code env} names a PMI-1 connection (PMI_FD or PMI_PORT). */
    public static boolean isAvailable(Map<String, String> env) {
        return env.containsKey("PMI_FD") || env.containsKey("PMI_PORT");
    }

    /** Connects through the PMI variables in {@code env} and runs the PMI-1 init sequence. */
    public static PmiClient connect(Map<String, String> env) {
        PmiChannel channel;
        try {
            if (env.containsKey("PMI_FD")) {
                channel = new FdPmiChannel(parseInt(env, "PMI_FD"));
            } else if (env.containsKey("PMI_PORT")) {
                channel = new FdPmiChannel(PmiSocket.connect(env.get("PMI_PORT"), CONNECT_TIMEOUT_MILLIS),
                        "PMI_PORT " + env.get("PMI_PORT"));
            } else {
                throw new BootstrapException("neither PMI_FD nor PMI_PORT is set: not started by a PMI-1 process manager");
            }
        } catch (IOException e) {
            throw new BootstrapException(e.getMessage(), e);
        }
        try {
            return handshake(channel, env);
        } catch (IOException | RuntimeException e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof BootstrapException be) {
                throw be;
            }
            throw new BootstrapException("PMI-1 start-up over " + channel.describe() + " failed: " + e.getMessage(), e);
        }
    }

    private static PmiClient handshake(PmiChannel channel, Map<String, String> env) throws IOException {
        Integer rank = env.containsKey("PMI_RANK") ? parseInt(env, "PMI_RANK") : null;
        Integer size = env.containsKey("PMI_SIZE") ? parseInt(env, "PMI_SIZE") : null;
        String secret = JobSecret.of(env);
        if (!env.containsKey("PMI_FD") && secret != null) {
            // Verbatim's mpirun serves PMI over TCP only to connections that know the job's secret.
            checkRc(channel, call(channel, "auth_result", "auth", "secret", secret), "the job's secret ("
                    + JobSecret.VARIABLE + ")");
        }
        if (!env.containsKey("PMI_FD") && env.containsKey("PMI_ID")) {
            // Hydra's -pmi-port start-up: initack, then "set" lines carrying size, rank and debug.
            channel.writeLine(PmiWire.format("initack", "pmiid", env.get("PMI_ID")));
            expect(channel, channel.readLine(), "initack");
            for (int i = 0; i < 3; i++) {
                Map<String, String> set = expect(channel, channel.readLine(), "set");
                if (set.containsKey("size") && size == null) {
                    size = Integer.parseInt(set.get("size"));
                }
                if (set.containsKey("rank") && rank == null) {
                    rank = Integer.parseInt(set.get("rank"));
                }
            }
        }
        Map<String, String> init = call(channel, "response_to_init", "init", "pmi_version", "1", "pmi_subversion", "1");
        checkRc(channel, init, "init");
        Map<String, String> maxes = call(channel, "maxes", "get_maxes");
        int keyMax = intField(maxes, "keylen_max", 64);
        int valueMax = intField(maxes, "vallen_max", 1024);
        if (rank == null || size == null) {
            throw new BootstrapException("the process manager gave no rank/size (PMI_RANK, PMI_SIZE unset and no initack over "
                    + channel.describe() + ")");
        }
        if (size < 1 || rank < 0 || rank >= size) {
            throw new BootstrapException("bad rank " + rank + " of size " + size + " from the process manager");
        }
        int appNum = intField(call(channel, "appnum", "get_appnum"), "appnum", 0);
        String kvs = call(channel, "my_kvsname", "get_my_kvsname").get("kvsname");
        if (kvs == null || kvs.isEmpty()) {
            throw new BootstrapException("the process manager gave no kvsname");
        }
        PmiClient client = new PmiClient(channel, rank, size, Math.max(appNum, 0), kvs, keyMax, valueMax);
        client.verbatimLauncher = !env.containsKey("PMI_FD") && secret != null;
        return client;
    }

    /**
     * Ends this process when the process manager is gone: its PMI connection closes or the parent
     * process ends (see {@link LauncherWatch}). A rank calls this once after connecting; the
     * watch stops at finalize and abort.
     */
    public synchronized void watchLauncher() {
        watchLauncher(LauncherWatch.exitRank(rank), true);
    }

    /** As {@link #watchLauncher()} with another action, for tests. */
    synchronized void watchLauncher(java.util.function.Consumer<String> onGone, boolean parentDeathSignal) {
        if (watch == null && !closed && channel instanceof FdPmiChannel fdChannel) {
            watch = LauncherWatch.start(fdChannel.fd(), channel.describe(), onGone, parentDeathSignal);
        }
    }

    private void stopWatch() {
        if (watch != null) {
            watch.stop();
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

    /** The PMI kvsname, which is the job's id. */
    @Override
    public String jobId() {
        return kvsName;
    }

    @Override
    public synchronized void put(String key, String value) {
        String k = encodedKey(key);
        String v = PmiWire.encode(value);
        if (v.length() > valueLengthMax) {
            throw new IllegalArgumentException("PMI value for key '" + key + "' is " + v.length()
                    + " bytes encoded; the process manager allows " + valueLengthMax);
        }
        checkRc(channel, request("put_result", "put", "kvsname", kvsName, "key", k, "value", v), "put " + key);
    }

    @Override
    public synchronized String get(String key) {
        String fetched = prefetched.get(key);
        if (fetched != null) {
            return fetched;
        }
        Map<String, String> reply = request("get_result", "get", "kvsname", kvsName, "key", encodedKey(key));
        if (!"0".equals(reply.get("rc")) || !reply.containsKey("value")) {
            return null;
        }
        return PmiWire.decode(reply.get("value"));
    }

    @Override
    public synchronized int universeSize() {
        try {
            return intField(request("universe_size", "get_universe_size"), "size", size);
        } catch (BootstrapException e) {
            return size;
        }
    }

    /**
     * Sends an extension command of Verbatim's mpirun ({@code publish_name}, {@code lookup_name},
     * {@code unpublish_name}, {@code spawn}) and returns its reply: {@code publish_result},
     * {@code lookup_result}, {@code unpublish_result} (PMI-1's names), {@code spawn_result}.
     */
    @Override
    public synchronized Map<String, String> service(String cmd, String... keyValues) {
        String reply = switch (cmd) {
            case "publish_name" -> "publish_result";
            case "lookup_name" -> "lookup_result";
            case "unpublish_name" -> "unpublish_result";
            default -> cmd + "_result";
        };
        return request(reply, cmd, keyValues);
    }

    /**
     * MPICH's PMI-1 spawn, as mpiexec.hydra serves it: one {@code mcmd=spawn} block per
     * command, each of {@code key=value} lines ({@code nprocs}, {@code execname}, {@code
     * totspawns}, {@code spawnssofar}, {@code argcnt}, {@code arg1..}, {@code preput_num}, {@code
     * preput_key_i}/{@code preput_val_i}, {@code info_num}, {@code info_key_i}/{@code info_val_i})
     * ended by {@code endcmd}; one {@code cmd=spawn_result rc=...} answers them all.
     */
    public synchronized Map<String, String> spawnMpich(java.util.List<java.util.List<String>> blocks) {
        if (closed) {
            throw new IllegalStateException("PMI client already finalized");
        }
        try {
            for (java.util.List<String> block : blocks) {
                channel.writeLine("mcmd=spawn");
                for (String line : block) {
                    if (line.indexOf('\n') >= 0) {
                        throw new IllegalArgumentException("a spawn argument holds a line break: " + line);
                    }
                    channel.writeLine(line);
                }
                channel.writeLine("endcmd");
            }
            return expect(channel, channel.readLine(), "spawn_result");
        } catch (IOException e) {
            throw new BootstrapException("spawn over " + channel.describe() + " failed: " + e.getMessage(), e);
        }
    }

    /** True when Verbatim's mpirun started this process (it presented the job's secret). */
    public boolean verbatimLauncher() {
        return verbatimLauncher;
    }

    @Override
    public synchronized void barrier() {
        prefetched.clear();
        request("barrier_out", "barrier_in");
    }

    /**
     * With Verbatim's mpirun, fetches the keys {@value #MGET_KEYS} at a time with its {@code mget}
     * extension ({@code cmd=mget kvsname=K k0=KEY0 k1=KEY1 ...}, answered by {@code
     * cmd=mget_result rc=0 v0=VALUE0 ...}, a value left out for a key not found); under another
     * process manager, or one that refuses mget, nothing (each get asks on its own).
     */
    @Override
    public synchronized void prefetch(Collection<String> keys) {
        if (!verbatimLauncher || mgetRefused || closed) {
            return;
        }
        List<String> all = List.copyOf(keys);
        for (int from = 0; from < all.size(); from += MGET_KEYS) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + MGET_KEYS));
            String[] fields = new String[2 + 2 * chunk.size()];
            fields[0] = "kvsname";
            fields[1] = kvsName;
            for (int i = 0; i < chunk.size(); i++) {
                fields[2 + 2 * i] = "k" + i;
                fields[3 + 2 * i] = encodedKey(chunk.get(i));
            }
            Map<String, String> reply;
            try {
                channel.writeLine(PmiWire.format("mget", fields));
                reply = PmiWire.parse(channel.readLine());
            } catch (IOException e) {
                throw new BootstrapException("mget over " + channel.describe() + " failed: " + e.getMessage(), e);
            }
            if (!"mget_result".equals(reply.get("cmd")) || !"0".equals(reply.get("rc"))) {
                mgetRefused = true;
                return;
            }
            for (int i = 0; i < chunk.size(); i++) {
                String value = reply.get("v" + i);
                if (value != null) {
                    prefetched.put(chunk.get(i), PmiWire.decode(value));
                }
            }
        }
    }

    /**
     * Prints why on stderr (Hydra's PMI-1 abort carries only the code), waits until the process
     * manager has read it (Hydra kills the job at once and drops unread output), then asks the
     * process manager to end the job; the caller should exit afterwards.
     */
    @Override
    public synchronized void abort(int code, String message) {
        stopWatch();
        AbortNotice.print(rank, code, message);
        try {
            channel.writeLine(PmiWire.format("abort", "exitcode", Integer.toString(code)));
        } catch (IOException e) {
            throw new BootstrapException("abort: cannot reach the process manager over " + channel.describe(), e);
        }
    }

    /** Sends finalize, waits for its acknowledgement and closes the connection. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopWatch();
        try {
            call(channel, "finalize_ack", "finalize");
        } catch (IOException e) {
            throw new BootstrapException("finalize over " + channel.describe() + " failed: " + e.getMessage(), e);
        } finally {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the process manager may already have closed its side
            }
        }
    }

    private String encodedKey(String key) {
        String k = PmiWire.encode(key);
        if (k.length() > keyLengthMax) {
            throw new IllegalArgumentException("PMI key '" + key + "' is " + k.length()
                    + " bytes encoded; the process manager allows " + keyLengthMax);
        }
        return k;
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

    private static Map<String, String> call(PmiChannel channel, String expected, String cmd, String... keyValues) throws IOException {
        channel.writeLine(PmiWire.format(cmd, keyValues));
        return expect(channel, channel.readLine(), expected);
    }

    private static Map<String, String> expect(PmiChannel channel, String line, String expected) {
        Map<String, String> reply = PmiWire.parse(line);
        if (!expected.equals(reply.get("cmd"))) {
            throw new BootstrapException("expected cmd=" + expected + " from the process manager over "
                    + channel.describe() + ", got: " + line);
        }
        return reply;
    }

    private static void checkRc(PmiChannel channel, Map<String, String> reply, String what) {
        String rc = reply.get("rc");
        if (rc != null && !rc.equals("0")) {
            throw new BootstrapException(what + " refused by the process manager over " + channel.describe()
                    + ": rc=" + rc + (reply.containsKey("msg") ? " msg=" + reply.get("msg") : ""));
        }
    }

    private static int intField(Map<String, String> reply, String key, int fallback) {
        String v = reply.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new BootstrapException("bad " + key + " from the process manager: " + v, e);
        }
    }

    private static int parseInt(Map<String, String> env, String name) {
        try {
            return Integer.parseInt(env.get(name).trim());
        } catch (NumberFormatException e) {
            throw new BootstrapException(name + " is not a number: " + env.get(name), e);
        }
    }
}
