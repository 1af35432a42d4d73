package org.verbatim.transport.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.bootstrap.Bootstrap;
import org.verbatim.spi.DynamicPeers;
import org.verbatim.spi.TransportContext;
import org.verbatim.spi.TransportException;

/**
 * The collective start-up of {@link ShmTransport} for one rank: every rank with a peer on its
 * host creates its inbox (and eventfd), publishes its pid and probe address, maps every
 * same-host peer's inbox after a barrier, probes CMA, fetches the peers' eventfds, and after a
 * second barrier unlinks every inbox file of the host (see {@link InboxFile} for why). A failure
 * removes what this rank created and says why.
 */
final class ShmOpen {
    private ShmOpen() {
    }

    static ShmTransport open(TransportContext context, ShmConfiguration config)
            throws TransportException {
        final int rank = context.rank();
        final int size = context.size();
        final Bootstrap bootstrap = context.bootstrap();
        final long pid = ProcessHandle.current().pid();
        int localPeers = 0;
        for (int p = 0; p < size; p++) {
            if (p != rank && context.sameHost(p)) {
                localPeers++;
            }
        }
        Arena arena = Arena.ofShared();
        PeerWakeups wakeups = new PeerWakeups(rank, size, arena);
        Path inboxPath = InboxFile.path(config.directory(), bootstrap.jobId(), rank);
        boolean created = false;
        // A rank ended by SIGTERM while its inbox has a name (its launcher died: the parent-death
        // signal) removes the file on its way out.
        Thread unlinkOnExit = new Thread(() -> {
            try {
                Files.deleteIfExists(inboxPath);
            } catch (IOException ignored) {
                // best effort while the JVM exits
            }
        }, "verbatim-shm-unlink");
        Runtime.getRuntime().addShutdownHook(unlinkOnExit);
        try {
            CrossMemoryAttach cma = new CrossMemoryAttach(arena);
            String cmaCause = null;
            if (!config.cma()) {
                cmaCause = "disabled by " + ShmConfiguration.CMA.name() + "=false";
            } else {
                int e = cma.allowAnyPtracer();
                if (e != 0 && e != LinuxSyscalls.EINVAL) {
                    cmaCause = "prctl(PR_SET_PTRACER) failed: " + LinuxSyscalls.describe(e);
                }
            }
            final boolean ptraceable = cmaCause == null;
            InboxFile.Created inbox = null;
            if (localPeers > 0) {
                inbox = InboxFile.create(inboxPath, config.inboxSize(), config.maxRecordLength(), pid, arena);
                MemorySegment file = inbox.file();
                created = true;
                bootstrap.put(key("pid", rank), Long.toString(pid));
                bootstrap.put(key("probe", rank),
                        Long.toString(file.address() + InboxDescriptor.PROBE_OFFSET));
                wakeups.create(bootstrap, config.eventFd());
            }
            bootstrap.barrier();
            bootstrap.prefetch(peerKeys(context, rank, size, "pid", "efd"));

            int[] pids = new int[size + DynamicPeers.MAX_ADDED];
            MpscRing[] rings = new MpscRing[size + DynamicPeers.MAX_ADDED];
            int probePeer = -1;
            for (int p = 0; p < size; p++) {
                if (p == rank || !context.sameHost(p)) {
                    continue;
                }
                String peerPid = bootstrap.get(key("pid", p));
                if (peerPid == null) {
                    throw new TransportException("rank " + p + " on this host published no shm inbox");
                }
                pids[p] = Integer.parseInt(peerPid);
                MemorySegment file = InboxFile.map(
                        InboxFile.path(config.directory(), bootstrap.jobId(), p),
                        config.inboxSize(), config.maxRecordLength(), arena);
                rings[p] = new MpscRing(file, config.inboxSize(), config.maxRecordLength(), null);
                if (probePeer < 0) {
                    probePeer = p;
                }
            }
            if (cmaCause == null && probePeer >= 0) {
                cmaCause = probe(cma, arena, pids[probePeer],
                        Long.parseLong(bootstrap.get(key("probe", probePeer))), probePeer);
            }
            if (localPeers > 0) {
                bootstrap.put(key("cma", rank), cmaCause == null ? "ok" : cmaCause);
                wakeups.fetch(bootstrap, pids, rings, arena);
            }
            bootstrap.barrier();
            bootstrap.prefetch(peerKeys(context, rank, size, "efd-ok", "cma"));
            wakeups.settle(bootstrap, rings);
            // Every same-host rank has mapped every inbox: unlink them all. Each rank removes the
            // files of all its peers as well as its own, so that none survives even if its owner
            // dies right now, and none is visible once any rank has returned from open.
            if (created) {
                Files.deleteIfExists(inboxPath);
                created = false;
            }
            for (int p = 0; p < size; p++) {
                if (rings[p] != null) {
                    Files.deleteIfExists(InboxFile.path(config.directory(), bootstrap.jobId(), p));
                }
            }
            for (int p = 0; p < size && cmaCause == null; p++) {
                if (rings[p] != null) {
                    String verdict = bootstrap.get(key("cma", p));
                    if (!"ok".equals(verdict)) {
                        cmaCause = "rank " + p + " cannot use CMA: " + verdict;
                    }
                }
            }
            if (localPeers == 0) {
                cmaCause = "no peer on this host";
            }
            removeHook(unlinkOnExit);
            return new ShmTransport(context, config, arena, inboxPath, inbox, pids, rings, cma,
                    cmaCause == null, cmaCause, wakeups, ptraceable);
        } catch (IOException | RuntimeException e) {
            removeHook(unlinkOnExit);
            wakeups.close();
            cleanUpFailedOpen(arena, created ? inboxPath : null);
            throw new TransportException("shm transport of rank " + rank + " failed to open: " + e, e);
        } catch (TransportException e) {
            removeHook(unlinkOnExit);
            wakeups.close();
            cleanUpFailedOpen(arena, created ? inboxPath : null);
            throw e;
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException exiting) {
            // the JVM is exiting and runs the hook: harmless, the file is gone or going
        }
    }

    private static void cleanUpFailedOpen(Arena arena, Path created) {
        if (created != null) {
            try {
                Files.deleteIfExists(created);
            } catch (IOException ignored) {
                // best effort: the open already failed for a reason we report
            }
        }
        arena.close();
    }

    /** Reads the peer's probe word through CMA: null when it worked, else why not. */
    private static String probe(CrossMemoryAttach cma, Arena arena, int pid, long address, int peer) {
        MemorySegment word = arena.allocate(8, 8);
        int e = cma.read(pid, word, address);
        if (e != 0) {
            return "process_vm_readv of rank " + peer + " refused: " + LinuxSyscalls.describe(e);
        }
        if (word.get(ValueLayout.JAVA_LONG, 0) != InboxDescriptor.PROBE_MAGIC) {
            return "process_vm_readv of rank " + peer + " read the wrong data";
        }
        return null;
    }

    private static String key(String what, int rank) {
        return "shm." + what + "." + rank;
    }

    /** The keys {@code whats} of every other rank on this host, read next (one mget, not one get each). */
    private static List<String> peerKeys(TransportContext context, int rank, int size, String... whats) {
        List<String> keys = new ArrayList<>();
        for (int p = 0; p < size; p++) {
            if (p != rank && context.sameHost(p)) {
                for (String what : whats) {
                    keys.add(key(what, p));
                }
            }
        }
        return keys;
    }

}
