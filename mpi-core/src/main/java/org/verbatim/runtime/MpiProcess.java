package org.verbatim.runtime;

import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.Profiler;
import org.verbatim.runtime.p2p.RendezvousPolicy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.bootstrap.Bootstrap;
import org.verbatim.runtime.ext.RuntimeExtension;
import org.verbatim.spi.Transport;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;
import org.verbatim.spi.TransportProvider;

/**
 * One MPI process: its bootstrap, the opened transports, the point-to-point engine and the
 * context-id counter. Created by MPI_Init, closed by MPI_Finalize. Not static: several can live
 * in one JVM for tests.
 */
public final class MpiProcess implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MpiProcess.class);

    private final Bootstrap bootstrap;
    private final Map<String, String> config;
    private final int rank;
    private final int size;
    private final String[] hosts;
    private final int threadLevel;
    private final Engine engine;
    private final Profiler profiler;
    private final boolean checkTypes;
    private final org.verbatim.runtime.coll.CollSettings collSettings;
    private final Thread mainThread = Thread.currentThread();
    private int nextContext = 16;
    /** Peer numbers of the processes of other worlds (connect/accept, spawn). */
    private final PeerTable peers;
    /** Modules plugged into the runtime (ServiceLoader), in start order. */
    private final List<RuntimeExtension> extensions = new ArrayList<>();

    private MpiProcess(Bootstrap bootstrap, Map<String, String> config, int threadLevel,
                       List<TransportProvider> providers) {
        this.bootstrap = bootstrap;
        this.config = config;
        this.rank = bootstrap.rank();
        this.size = bootstrap.size();
        this.threadLevel = threadLevel;
        String host = org.verbatim.bootstrap.HostInfo.hostName();
        bootstrap.put("verbatim.host." + rank, host);
        bootstrap.barrier();
        this.hosts = new String[size];
        List<String> hostKeys = new ArrayList<>(size);
        for (int r = 0; r < size; r++) {
            hostKeys.add("verbatim.host." + r);
        }
        bootstrap.prefetch(hostKeys);
        for (int r = 0; r < size; r++) {
            String h = bootstrap.get("verbatim.host." + r);
            if (h == null) {
                throw new MpiError(ErrorClass.ERR_INTERN, "bootstrap: rank " + r
                        + " did not publish its host name");
            }
            hosts[r] = h;
        }
        this.peers = new PeerTable(bootstrap.jobId(), rank, size, host);
        long ranksOnHost = Arrays.stream(hosts).filter(host::equals).count();
        IdleStrategy idle = IdleStrategy.choose(CoreSettings.IDLE.getChoice(config), (int) ranksOnHost,
                org.verbatim.bootstrap.HostInfo.onlineCores());
        this.profiler = new Profiler(CoreSettings.PROFILE.getBoolean(config));
        this.checkTypes = CoreSettings.CHECK_TYPES.getBoolean(config);
        this.collSettings = org.verbatim.runtime.coll.CollSettings.from(config);
        // A negative eager limit is the core's default, which a transport's own may replace.
        long eagerLimit = CoreSettings.EAGER_LIMIT.getSize(config);
        this.engine = new Engine(rank, size, config.containsKey(CoreSettings.EAGER_LIMIT.name()) ? eagerLimit
                : -eagerLimit,
                CoreSettings.READS_IN_FLIGHT.getInt(config), threadLevel, idle, profiler,
                CoreSettings.PROTO_INFO.getBoolean(config), rendezvousPolicy(config), config);
        List<Transport> opened = new ArrayList<>();
        opened.add(new SelfTransport(rank, engine));
        TransportContext ctx = new TransportContext(rank, size, hosts, bootstrap, engine, config);
        for (TransportProvider p : providers) {
            try {
                opened.add(p.open(ctx));
            } catch (TransportException e) {
                opened.forEach(Transport::close);
                throw new MpiError(ErrorClass.ERR_INTERN, "rank " + rank + ": transport "
                        + p.name() + " failed to open: " + e.getMessage(), e);
            }
        }
        engine.attach(opened);
        engine.peerNames(peers::describe);
        try {
            TransportReach.check(rank, hosts, opened, config);
        } catch (MpiError e) {
            opened.forEach(Transport::close);
            throw e;
        }
        for (RuntimeExtension x : ServiceLoader.load(RuntimeExtension.class)) {
            try {
                x.start(engine);
            } catch (RuntimeException e) {
                throw new MpiError(ErrorClass.ERR_INTERN, "rank " + rank + ": extension "
                        + x.name() + " failed to start: " + e.getMessage(), e);
            }
            extensions.add(x);
        }
        LOG.debug("rank {} of {} on {}: transports {}, idle {}", rank, size, host,
                opened.stream().map(Transport::name).toList(), idle);
    }

    static RendezvousPolicy rendezvousPolicy(Map<String, String> config) {
        long threshold;
        String choice;
        try {
            threshold = CoreSettings.RPUT_THRESHOLD.getSize(config);
            choice = CoreSettings.RENDEZVOUS.getChoice(config);
        } catch (IllegalArgumentException e) {
            throw new MpiError(ErrorClass.ERR_ARG, e.getMessage());
        }
        return RendezvousPolicy.parse(choice, threshold,
                CoreSettings.RENDEZVOUS.name(), CoreSettings.RPUT_THRESHOLD.name());
    }

    /** MPI_Init: opens every selected transport (collectively) and builds the engine. */
    public static MpiProcess start(Bootstrap bootstrap, Map<String, String> config,
                                   int threadLevel) {
        return new MpiProcess(bootstrap, config, threadLevel, selectProviders(config));
    }

    /** As {@link #start(Bootstrap, Map, int)} with explicit providers (tests, embedding). */
    public static MpiProcess start(Bootstrap bootstrap, Map<String, String> config,
                                   int threadLevel, List<TransportProvider> providers) {
        return new MpiProcess(bootstrap, config, threadLevel, providers);
    }

    static List<TransportProvider> selectProviders(Map<String, String> config) {
        String wanted = CoreSettings.TRANSPORTS.get(config).trim();
        Set<String> names = wanted.isEmpty() ? Set.of()
                : Arrays.stream(wanted.split(",")).map(String::trim).collect(Collectors.toSet());
        List<TransportProvider> all = new ArrayList<>();
        ServiceLoader.load(TransportProvider.class).forEach(all::add);
        all.sort(Comparator.comparingInt(TransportProvider::priority));
        List<TransportProvider> chosen = new ArrayList<>();
        for (TransportProvider p : all) {
            if (!names.isEmpty() && !names.contains(p.name())) {
                continue;
            }
            var cause = p.unavailabilityCause();
            if (cause.isPresent()) {
                if (names.contains(p.name())) {
                    throw new MpiError(ErrorClass.ERR_INTERN, "transport " + p.name()
                            + " was requested but is unavailable: " + cause.get());
                }
                LOG.debug("transport {} unavailable: {}", p.name(), cause.get());
                continue;
            }
            chosen.add(p);
        }
        for (String n : names) {
            if (all.stream().noneMatch(p -> p.name().equals(n))) {
                throw new MpiError(ErrorClass.ERR_INTERN, "verbatim.core.transports: unknown transport "
                        + n + " (found: " + all.stream().map(TransportProvider::name).toList() + ")");
            }
        }
        return chosen;
    }

    /** The runtime extensions, in start order (the same on every rank). */
    public List<RuntimeExtension> extensions() {
        return List.copyOf(extensions);
    }

    /** The first started runtime extension that offers {@code type}, or null. */
    public <T> T extension(Class<T> type) {
        for (RuntimeExtension x : extensions) {
            if (type.isInstance(x)) {
                return type.cast(x);
            }
        }
        return null;
    }

    public Engine engine() {
        return engine;
    }

    public Bootstrap bootstrap() {
        return bootstrap;
    }

    public Map<String, String> config() {
        return config;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return size;
    }

    public String host(int worldRank) {
        return worldRank < size ? hosts[worldRank] : peers.host(worldRank);
    }

    /**
     * The card that lets a process of another world reach this one (see {@link PeerTable}); it
     * travels through a port at MPI_Comm_connect/accept.
     */
    public String addressCard() {
        engine.lockRuntime(); // a transport may set up what the card describes (shm: a late inbox)
        try {
            return peers.card(engine.transports());
        } finally {
            engine.unlockRuntime();
        }
    }

    /**
     * The peer numbers of the processes of {@code cards}: world ranks for this world's own
     * processes, numbers from the world size up for the others, which the transports that can
     * reach them are given. Throws MpiError when a process cannot be reached.
     */
    public int[] addPeers(List<String> cards) {
        engine.lockRuntime(); // the transports' peer tables change: no progress meanwhile
        try {
            return peers.add(cards, engine.transports());
        } finally {
            engine.unlockRuntime();
        }
    }

    public int threadLevel() {
        return threadLevel;
    }

    public Thread mainThread() {
        return mainThread;
    }

    /** Collective algorithm thresholds (the same on every rank). */
    public org.verbatim.runtime.coll.CollSettings collSettings() {
        return collSettings;
    }

    /** verbatim.core.check-types: point-to-point calls carry and compare type signatures. */
    public boolean checkTypes() {
        return checkTypes;
    }

    public Profiler profiler() {
        return profiler;
    }

    /**
     * A block of context ids for a new communicator, at least {@code floor}: the caller makes
     * the value agreed (maximum over the parent communicator) before using it.
     */
    public synchronized int proposeContext() {
        return nextContext;
    }

    /** Records that ids below {@code agreed + 2} are taken. */
    public synchronized void contextTaken(int agreed) {
        nextContext = Math.max(nextContext, agreed + 2);
    }

    /** MPI_Finalize after the world barrier: closes transports and leaves the job. */
    @Override
    public void close() {
        bootstrap.barrier();
        for (int i = extensions.size() - 1; i >= 0; i--) {
            try {
                extensions.get(i).close();
            } catch (RuntimeException e) {
                LOG.warn("closing extension {}: {}", extensions.get(i).name(), e.toString());
            }
        }
        engine.p2p().releasePools(); // registered with the transports: deregister first
        for (Transport t : engine.transports()) {
            try {
                t.close();
            } catch (RuntimeException e) {
                LOG.warn("closing transport {}: {}", t.name(), e.toString());
            }
        }
        engine.close();
        bootstrap.close();
    }
}
