package org.verbatim.bootstrap;

/**
 * The job's bootstrap service (PMI-1 semantics): rank and size, a key-value space shared by the
 * job, a barrier that also makes puts visible, and abort. Implementations: the PMI-1 wire client
 * (under our mpirun or MPICH's Hydra), a singleton for a program started without a launcher, and
 * an in-JVM one for tests.
 */
public interface Bootstrap extends AutoCloseable {
    int rank();

    int size();

    /** Application number (MPI_APPNUM); 0 for a single application. */
    default int appNum() {
        return 0;
    }

    /**
     * How many processes the job may have in all, spawned ones included (MPI_UNIVERSE_SIZE):
     * the process manager's answer, else the world size.
     */
    default int universeSize() {
        return size();
    }

    /**
     * A process-manager service beyond PMI-1's key-value space (name publishing, spawn): sends
     * {@code cmd} with its fields (values as {@link PmiWire#encode} makes them) and returns the
     * reply's fields ({@code rc}, ...). Throws
     * UnsupportedOperationException when there is no process manager that offers them.
     */
    default java.util.Map<String, String> service(String cmd, String... keyValues) {
        throw new UnsupportedOperationException("no process manager offers " + cmd
                + " (started without bin/mpirun)");
    }

    /** Unique name of the job (PMI kvsname); safe in file names. */
    String jobId();

    /** Publishes a value; visible to the others after the next {@link #barrier()}. */
    void put(String key, String value);

    /** Reads a value put by any rank before the last barrier; null if absent. */
    String get(String key);

    /**
     * Says that {@link #get} of these keys comes next (each put before the last barrier): a
     * client may fetch them all in a few exchanges instead of one per key, so that reading a
     * value of every peer costs no round trip per peer (issue 16: start-up of many ranks). The
     * values fetched serve {@link #get} until the next {@link #barrier()}. By default nothing.
     */
    default void prefetch(java.util.Collection<String> keys) {
    }

    /** Collective barrier over the whole job; commits puts. */
    void barrier();

    /** Asks the process manager to end the whole job with {@code code}, saying why. */
    void abort(int code, String message);

    /** Tells the process manager this rank finished cleanly. */
    @Override
    void close();
}
