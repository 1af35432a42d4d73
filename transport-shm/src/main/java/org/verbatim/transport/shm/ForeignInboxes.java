package org.verbatim.transport.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * shm's {@link org.verbatim.spi.DynamicPeers}: processes of other worlds on this host (another
 * job, a spawned world) reached through their inboxes, as world peers are.
 *
 * <p><b>Card</b>: {@code v1,<boot id>,<pid namespace>,<uid>,<pid>,<inbox fd>,<eventfd>,<probe
 * address>,<cma>,<ptraceable>,<max record>}. The inbox file has no name any more (unlinked at
 * open), so a peer opens it as {@code /proc/<pid>/fd/<inbox fd>} (or fetches the descriptor with
 * pidfd_getfd where that is refused) and checks it as a world peer's: this user's, mode 0600
 * ({@link InboxFile#checkPrivate}), an inbox of this version made by that very process, with the
 * same record size. A process whose world has no other rank on this host makes its inbox when it
 * first gives its card.
 *
 * <p><b>Which transport</b>: both sides decide from the two cards alone, so they agree (a pair
 * where one side sent over shm and the other over tcp would wait forever for the other's
 * greeting): shm when both cards have an shm entry, the boot id, pid namespace and user are the
 * same, and whichever side copies with CMA may do so into the other (its card says it allowed
 * ptrace). Setting up such a peer then must work; when it does not, {@link #addPeer} throws
 * with the reason rather than fall back on its own.
 *
 * <p><b>Sources</b>: a record's source is the sender's world rank for its world peers, and
 * {@link #SOURCE_BASE} + its pid in an inbox of another world (pids are unique on a host while
 * the process lives; world ranks stay below 2^30). The owner maps that to the peer number the
 * runtime gave the sender. A record from a process the runtime has not added yet (the other
 * side finished connect/accept first) is copied aside and delivered, in order, at the first
 * progress after {@link #addPeer}.
 *
 * <p><b>Wake-ups</b>: the producer fetches the owner's eventfd (pidfd_getfd) when the owner
 * sleeps on one; if that is refused, the owner still wakes within the runtime's longest sleep
 * (1 ms) and sees the record.
 */
final class ForeignInboxes implements org.verbatim.spi.DynamicPeers {
    /** Record sources from here up are processes of other worlds (base + pid). */
    static final int SOURCE_BASE = 1 << 30;
    private static final String VERSION = "v1";

    private final ShmTransport transport;
    private final Arena arena;
    private final CrossMemoryAttach cma;
    private final MemorySegment errno;
    private final int maxRecordLength;
    private final boolean ptraceable;
    private final int mySource;
    private final Map<Integer, Integer> peerBySource = new HashMap<>();
    private final Map<Integer, ArrayDeque<Parked>> parked = new HashMap<>();
    private final ArrayDeque<Ready> ready = new ArrayDeque<>();
    private final List<Integer> fetchedEventFds = new ArrayList<>();

    /** A record of a process not added yet, copied out of the inbox. */
    private record Parked(int type, MemorySegment copy) {
    }

    /** A parked record whose sender is now peer {@code peer}. */
    private record Ready(int type, int peer, MemorySegment copy) {
    }

    ForeignInboxes(ShmTransport transport, Arena arena, CrossMemoryAttach cma, int maxRecordLength,
                   boolean ptraceable) {
        this.transport = transport;
        this.arena = arena;
        this.cma = cma;
        this.errno = LinuxSyscalls.allocateErrno(arena);
        this.maxRecordLength = maxRecordLength;
        this.ptraceable = ptraceable;
        this.mySource = SOURCE_BASE + (int) ProcessHandle.current().pid();
    }

    /** The source this process writes into the inboxes of other worlds. */
    int source() {
        return mySource;
    }

    @Override
    public String addressCard() {
        MpscRing inbox = transport.inboxForOtherWorlds();
        String host = HostIdentity.HERE;
        if (inbox == null || host == null) {
            return null;
        }
        long probe = inbox.buffer().address() + InboxDescriptor.PROBE_OFFSET;
        return String.join(",", VERSION, host, Long.toString(ProcessHandle.current().pid()),
                Integer.toString(transport.inboxFd()), Integer.toString(transport.eventFdForOtherWorlds()),
                Long.toHexString(probe), transport.crossMemoryAttach() ? "1" : "0", ptraceable ? "1" : "0",
                Integer.toString(maxRecordLength));
    }

    @Override
    public boolean addPeer(int peer, String card) {
        Card theirs = Card.parse(card);
        Card mine = Card.parse(addressCard());
        if (theirs == null || mine == null || !mine.sharesMemoryWith(theirs)) {
            return false;
        }
        String name = "the inbox of process " + theirs.pid + " (peer " + peer + ")";
        Path path = Path.of("/proc/" + theirs.pid + "/fd/" + theirs.inboxFd);
        int fetched = -1;
        MemorySegment file;
        try {
            if (!Files.isReadable(path)) {
                fetched = FileDescriptors.fetch(errno, (int) theirs.pid, theirs.inboxFd);
                if (fetched < 0) {
                    throw new IllegalStateException("shm cannot open " + name + ": " + path
                            + " is not readable and pidfd_getfd was refused: " + LinuxSyscalls.describe(-fetched));
                }
                path = Path.of("/proc/self/fd/" + fetched);
            }
            file = InboxFile.map(path.toString(), name, -1, maxRecordLength, theirs.pid, arena);
        } catch (IOException e) {
            throw new IllegalStateException("shm cannot map " + name + ": " + e.getMessage(), e);
        } finally {
            if (fetched >= 0) {
                FileDescriptors.close(errno, fetched);
            }
        }
        if (transport.crossMemoryAttach()) {
            MemorySegment word = arena.allocate(8, 8);
            int e = cma.read((int) theirs.pid, word, theirs.probe);
            if (e != 0 || word.get(ValueLayout.JAVA_LONG, 0) != InboxDescriptor.PROBE_MAGIC) {
                throw new IllegalStateException("shm cannot copy into process " + theirs.pid + " (peer " + peer
                        + ") with CMA: " + (e != 0 ? LinuxSyscalls.describe(e) : "it read the wrong data"));
            }
        }
        MpscRing ring = new MpscRing(file, file.get(ValueLayout.JAVA_INT, InboxDescriptor.CAPACITY_OFFSET),
                maxRecordLength, null);
        if (theirs.eventFd >= 0) {
            int fd = FileDescriptors.fetch(errno, (int) theirs.pid, theirs.eventFd);
            if (fd >= 0) {
                fetchedEventFds.add(fd);
                ring.doorbell().wakeThrough(fd, arena.allocate(8, 8), errno);
            }
        }
        transport.addForeignPeer(peer, (int) theirs.pid, ring);
        int source = SOURCE_BASE + (int) theirs.pid;
        peerBySource.put(source, peer);
        ArrayDeque<Parked> early = parked.remove(source);
        if (early != null) {
            for (Parked p : early) {
                ready.add(new Ready(p.type, peer, p.copy));
            }
        }
        return true;
    }

    /** The peer number of a record's source at or above {@link #SOURCE_BASE}, or -1 when unknown yet. */
    int peerOf(int source) {
        Integer peer = peerBySource.get(source);
        return peer == null ? -1 : peer;
    }

    /** Copies aside a record of a process the runtime has not added yet. */
    void park(int source, int type, MemorySegment buffer, long record, int length) {
        MemorySegment copy = Arena.ofAuto().allocate(length, 8);
        MemorySegment.copy(buffer, record, copy, 0, length);
        parked.computeIfAbsent(source, s -> new ArrayDeque<>()).add(new Parked(type, copy));
    }

    /** True when parked records of added processes wait for delivery. */
    boolean hasReady() {
        return !ready.isEmpty();
    }

    /** Delivers the parked records of added processes, oldest first (before the inbox is read again). */
    int deliverReady() {
        int n = 0;
        while (!ready.isEmpty()) {
            Ready r = ready.poll();
            transport.deliver(r.type, r.peer, r.copy, 0, (int) r.copy.byteSize());
            n++;
        }
        return n;
    }

    /** Closes the eventfd duplicates fetched from processes of other worlds. */
    void close() {
        for (int fd : fetchedEventFds) {
            FileDescriptors.close(errno, fd);
        }
        fetchedEventFds.clear();
    }

    /** A parsed card; null from {@link #parse} when it is not one of this version. */
    record Card(String boot, String pidNamespace, String uid, long pid, int inboxFd, int eventFd, long probe,
                        boolean cma, boolean ptraceable, int maxRecord) {
        static Card parse(String card) {
            if (card == null) {
                return null;
            }
            String[] f = card.split(",");
            if (f.length != 11 || !f[0].equals(VERSION)) {
                return null;
            }
            try {
                return new Card(f[1], f[2], f[3], Long.parseLong(f[4]), Integer.parseInt(f[5]),
                        Integer.parseInt(f[6]), Long.parseUnsignedLong(f[7], 16), f[8].equals("1"), f[9].equals("1"),
                        Integer.parseInt(f[10]));
            } catch (NumberFormatException e) {
                return null;
            }
        }

        /** The rule both sides apply to the same two cards (see the class comment). */
        boolean sharesMemoryWith(Card other) {
            return boot.equals(other.boot) && pidNamespace.equals(other.pidNamespace) && uid.equals(other.uid)
                    && pid != other.pid && maxRecord == other.maxRecord
                    && (!cma || other.ptraceable) && (!other.cma || ptraceable);
        }
    }

    /** What makes two processes share /proc, pids and files: boot id, pid namespace, user. */
    static final class HostIdentity {
        /** {@code <boot id>,<pid namespace inode>,<uid>}, or null when /proc does not tell. */
        static final String HERE = read();

        private HostIdentity() {
        }

        private static String read() {
            try {
                String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).strip();
                String ns = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString().replaceAll("\\D", "");
                return boot + "," + ns + "," + ProcessUser.uid();
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
    }
}
