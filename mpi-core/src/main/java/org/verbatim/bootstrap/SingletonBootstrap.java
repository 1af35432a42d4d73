package org.verbatim.bootstrap;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The bootstrap of a program started without a process manager: rank 0 of 1, a private
 * key-value space, a barrier that returns at once, and an abort that ends this process.
 */
public final class SingletonBootstrap implements Bootstrap {
    private final String jobId = "singleton-" + ProcessHandle.current().pid() + "-"
            + Integer.toHexString(ThreadLocalRandom.current().nextInt() & 0xfffffff);
    private final Map<String, String> kvs = new ConcurrentHashMap<>();

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public void put(String key, String value) {
        kvs.put(key, value);
    }

    @Override
    public String get(String key) {
        return kvs.get(key);
    }

    @Override
    public void barrier() {
    }

    /** The job is this process: print why and exit with {@code code} (shutdown hooks run). */
    @Override
    public void abort(int code, String message) {
        System.err.println("[verbatim] rank 0 aborts the job (code " + code + "): " + message);
        System.err.flush();
        System.exit(code == 0 ? 1 : code);
    }

    @Override
    public void close() {
    }
}
