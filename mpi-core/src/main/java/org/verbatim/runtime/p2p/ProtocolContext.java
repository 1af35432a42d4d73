package org.verbatim.runtime.p2p;

import org.verbatim.runtime.base.EngineLock;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.runtime.base.RequestTable;
import org.verbatim.runtime.base.StagingPool;
import org.verbatim.runtime.ext.Dispatch;
import org.verbatim.spi.Transport;

/**
 * What the point-to-point protocols need from the runtime, and nothing more: the one dispatch
 * point (which transport reaches a peer), the registry, the shared request table and staging
 * pool, the lock, a progress pass, and the way to end the job. The protocols never see the
 * engine itself.
 */
public interface ProtocolContext {
    int worldRank();

    /** The transport chosen for {@code world} (self, shm, network), or an error if none reaches it. */
    Transport transportFor(int world);

    Dispatch dispatch();

    /** Ids of requests in flight: the wire's request ids and the tracked work-request ids. */
    RequestTable table();

    /** Native scratch memory for staging and unexpected payloads. */
    StagingPool pool();

    Profiler profiler();

    EngineLock lock();

    /** One progress pass; the caller holds the lock. */
    int progressLocked();

    /** Throws if the job has failed. */
    void checkFatal();

    /** Marks the job failed with {@code message}; returns the error to throw. */
    RuntimeException fail(String message);
}
