package org.verbatim.runtime.ext;

import java.util.Map;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.Transport;

/** What the runtime offers an extension: who we are, the registry, the way to each peer. */
public interface ExtensionContext {
    int worldRank();

    int worldSize();

    /** The registry to register kinds, immediates, completions and pending work with. */
    Dispatch dispatch();

    /** The transport that the one dispatch point chose for {@code world} (connecting if needed). */
    Transport transport(int world);

    /** The endpoint to {@code world} on that transport. */
    Endpoint endpoint(int world);

    /** Adds work that runs on every progress pass until it returns a negative count. */
    void addPoller(Poller poller);

    /** Effective configuration (verbatim.* properties). */
    Map<String, String> config();

    /**
     * Takes the runtime's lock (a real lock only at MPI_THREAD_MULTIPLE): hold it to post on
     * endpoints or to touch state that handlers touch. Not reentrant across {@link #progress}.
     */
    void lockRuntime();

    void unlockRuntime();

    /** One progress pass (takes the lock); returns the work done. */
    int progress();

    /** Makes progress (dropping the lock between passes) until {@code done} is true. */
    void awaitCondition(java.util.function.BooleanSupplier done);

    /** Ends the job with {@code message} (every rank's waiting calls end with it). */
    RuntimeException fail(String message);

    /** Work advanced by the progress engine itself. */
    @FunctionalInterface
    interface Poller {
        /** Advances; returns work done, or a negative number when finished (then removed). */
        int doWork();
    }
}
