package org.verbatim.transport.verbs;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.ProfileCounter;
import org.verbatim.spi.Transport;
import org.verbatim.verbs.QueuePair;

/**
 * What a transport on the shared verbs data path ({@link VerbsEngine}) is, whatever connects its
 * queue pairs: one RC queue pair per peer, created at the first {@code endpoint(peer)} and handed
 * to the subclass's connection set-up ({@link #connect}), whose events are polled every pass while
 * a connection is being set up and otherwise one pass in a number the subclass gives (a request
 * from a new peer waits at most that long), then the data path. Subclasses (ib: UD datagrams; iwarp: the RDMA connection
 * manager) add the device and the way connections are made.
 */
public abstract class VerbsTransport implements Transport {
    protected final int rank;
    protected final int size;
    protected final VerbsEngine engine;
    private final int connectionPollMask;
    private int progressCalls;

    /** Looks at the connection events one pass in 16 while none is being set up (a CQ poll). */
    protected VerbsTransport(int rank, int size, VerbsEngine engine) {
        this(rank, size, engine, 16);
    }

    /**
     * @param idleConnectionPolls progress passes per look at the connection events while no
     *                            connection is being set up, a power of two: larger where the
     *                            look is a system call
     */
    protected VerbsTransport(int rank, int size, VerbsEngine engine, int idleConnectionPolls) {
        if (Integer.bitCount(idleConnectionPolls) != 1) {
            throw new IllegalArgumentException("idleConnectionPolls must be a power of two: " + idleConnectionPolls);
        }
        this.rank = rank;
        this.size = size;
        this.engine = engine;
        this.connectionPollMask = idleConnectionPolls - 1;
    }

    /** The device port queue pairs are bound to at INIT. */
    protected abstract int port();

    /** Starts setting up the connection of {@code ep}, just created (INIT), to its peer. */
    protected abstract void connect(VerbsEndpoint ep);

    /** True while a connection is being set up (its events are then polled on every pass). */
    protected abstract boolean connecting();

    /** Handles the waiting connection events; returns the events handled. */
    protected abstract int pollConnections();

    /** The endpoint of {@code peer}, creating its RC queue pair (INIT) if there is none yet. */
    public VerbsEndpoint endpointOrCreate(int peer) {
        VerbsEndpoint ep = engine.endpoint(peer);
        if (ep != null) {
            return ep;
        }
        QueuePair qp = engine.createQueuePair();
        qp.toInit(port(), engine.queuePairAccess(), 0);
        return engine.addEndpoint(peer, qp);
    }

    @Override
    public Capabilities capabilities() {
        return engine.capabilities();
    }

    @Override
    public boolean reaches(int peer) {
        return peer != rank && peer >= 0 && peer < size;
    }

    @Override
    public Endpoint endpoint(int peer) {
        if (!reaches(peer)) {
            throw new IllegalArgumentException(name() + " does not reach rank " + peer);
        }
        VerbsEndpoint ep = engine.endpoint(peer);
        if (ep == null) {
            ep = endpointOrCreate(peer);
            connect(ep);
        }
        return ep;
    }

    @Override
    public MemoryRegistration register(MemorySegment segment, int access) {
        return engine.register(segment, access);
    }

    @Override
    public int progress() {
        int work = 0;
        if (connecting() || (++progressCalls & connectionPollMask) == 0) {
            work += pollConnections();
        }
        return work + engine.progress();
    }

    /** The profiler counters of this transport. */
    public VerbsCounters counters() {
        return engine.counters();
    }

    /** Registration cache counters: hits, misses, evictions, invalidations, pinned bytes. */
    public long[] registrationCacheCounters() {
        return engine.registrationCacheCounters();
    }

    @Override
    public long communicationMemory() {
        return engine.counters().communicationMemory();
    }

    /** The profiler counters (verbatim.core.profile), combined over the ranks at finalize. */
    @Override
    public List<ProfileCounter> profileCounters() {
        return engine.profileCounters();
    }

    /** The counters in one line (tests and logs). */
    public String profileLine() {
        return engine.profileLine(name());
    }
}
