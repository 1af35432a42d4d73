package org.verbatim.transport.verbs;

import java.util.List;
import org.verbatim.spi.ProfileCounter;

/**
 * The memory-scalability paper's counters of a verbs transport. Plain fields: they are written
 * under the runtime's progress lock (the SRQ event count by the async-event thread, hence
 * volatile).
 */
public final class VerbsCounters {
    long communicationMemory;
    long peakCommunicationMemory;
    int fastPathPeers;
    volatile long srqLimitEvents;
    volatile int srqBuffers;
    long messagesSent;
    long messagesReceived;
    long fastPathMessagesReceived;
    long retries;
    long creditMessages;
    int queuePairs;
    long connectRequests;
    long connectResends;
    long firstMessages;
    long firstMessagesReceived;

    /** The connection management sent a connection request. */
    public void connectRequest() {
        connectRequests++;
    }

    /** The connection management sent a connection datagram again. */
    public void connectResend() {
        connectResends++;
    }

    void allocated(long bytes) {
        communicationMemory += bytes;
        peakCommunicationMemory = Math.max(peakCommunicationMemory, communicationMemory);
    }

    /** Bytes of registered eager buffers (receive pools, send buffers, fast-path rings). */
    public long communicationMemory() {
        return communicationMemory;
    }

    public long peakCommunicationMemory() {
        return peakCommunicationMemory;
    }

    /** Peers this process gave RDMA fast-path buffers. */
    public int fastPathPeers() {
        return fastPathPeers;
    }

    /** SRQ limit (low-watermark) events received from the adapter. */
    public long srqLimitEvents() {
        return srqLimitEvents;
    }

    /** Buffers in the shared receive queue's pool now. */
    public int srqBuffers() {
        return srqBuffers;
    }

    public long messagesSent() {
        return messagesSent;
    }

    public long messagesReceived() {
        return messagesReceived;
    }

    public long fastPathMessagesReceived() {
        return fastPathMessagesReceived;
    }

    /** RC queue pairs this process created (one per peer it talks to, on demand). */
    public int queuePairs() {
        return queuePairs;
    }

    /** Connection requests this process sent (first use of a peer). */
    public long connectRequests() {
        return connectRequests;
    }

    /**
     * Connection requests sent again: no answer came in time, or the peer asked again (ib's
     * datagrams); an RDMA CM attempt that failed, made again on a fresh queue pair (iwarp).
     */
    public long connectResends() {
        return connectResends;
    }

    /**
     * Credit returns sent as control messages (CREDIT_SR, CREDIT_RING); ring credits that ride in
     * a reverse-direction ring write are not counted.
     */
    public long creditMessages() {
        return creditMessages;
    }

    /** Hidden first messages this process sent as the connecting side (iWARP). */
    public long firstMessages() {
        return firstMessages;
    }

    /** Hidden first messages this process received (and kept from the runtime) as the accepting side. */
    public long firstMessagesReceived() {
        return firstMessagesReceived;
    }

    /** Sends refused with RETRY (no credit, buffer or queue slot). */
    public long retries() {
        return retries;
    }

    /** The profiler counters (verbatim.core.profile), with the registration cache's. */
    List<ProfileCounter> profileCounters(Registrations registrations) {
        return List.of(
                ProfileCounter.sumAndMax("communication memory", "KiB", communicationMemory >> 10),
                ProfileCounter.sumAndMax("peak communication memory", "KiB", peakCommunicationMemory >> 10),
                ProfileCounter.sumAndMax("queue pairs", "", queuePairs),
                ProfileCounter.sum("connection requests", connectRequests),
                ProfileCounter.sum("connection resends", connectResends),
                ProfileCounter.sum("first messages", firstMessages),
                ProfileCounter.sumAndMax("fast-path peers", "", fastPathPeers),
                ProfileCounter.sum("SRQ low-watermark events", srqLimitEvents),
                ProfileCounter.max("SRQ buffers", srqBuffers),
                ProfileCounter.sum("sent", messagesSent),
                ProfileCounter.sum("received", messagesReceived),
                ProfileCounter.sum("received on the fast path", fastPathMessagesReceived),
                ProfileCounter.sum("retries", retries),
                ProfileCounter.sum("registration cache hits", registrations.hits()),
                ProfileCounter.sum("misses", registrations.misses()),
                ProfileCounter.sum("evictions", registrations.evictions()),
                ProfileCounter.sum("invalidations", registrations.invalidations()));
    }

    /** The counters in one line (tests and logs), as {@code [verbatim <name>] rank ...}. */
    String line(String name, int rank, String where, EagerChannel channel, Registrations registrations) {
        return String.format("[verbatim %s] rank %d on %s: channel %s, communication memory %d KiB (peak %d KiB),"
                        + " queue pairs %d (connection requests %d, resends %d, first messages %d/%d), fast-path peers %d, SRQ low-watermark events %d, SRQ buffers %d, sent %d,"
                        + " received %d (fast path %d), credit messages %d, retries %d, registration cache hits %d misses %d"
                        + " evictions %d invalidations %d",
                name, rank, where, channel.configName(), communicationMemory >> 10,
                peakCommunicationMemory >> 10, queuePairs, connectRequests,
                connectResends, firstMessages, firstMessagesReceived, fastPathPeers, srqLimitEvents,
                srqBuffers, messagesSent, messagesReceived,
                fastPathMessagesReceived, creditMessages, retries, registrations.hits(),
                registrations.misses(), registrations.evictions(), registrations.invalidations());
    }
}
