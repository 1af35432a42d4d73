package org.verbatim.transport.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.spi.PostStatus;

/**
 * The eager channels' control messages: sends with immediate {@code type << 28 | value} (or
 * that word in band, {@link InBandControl}, where the device has no immediate data) that
 * return per-connection credits (ardma-sr), return fast-path ring credits, offer a ring
 * (address and key in the body) and start using one, and the hidden first message of a
 * connection (iWARP). Also the set of rings this process polls.
 * Runs on the progressing thread.
 */
final class EagerControl {
    private static final Logger LOG = LoggerFactory.getLogger(EagerControl.class);

    static final int SHIFT = 28;
    static final int CREDIT_SR = 1;
    static final int CREDIT_RING = 2;
    static final int RING_OFFER = 3;
    static final int RING_START = 4;
    /** The connecting side's first message (iWARP: MPA wants the client to send first) and its answer; never delivered. */
    static final int FIRST = 5;
    /**
     * Not a control message: a data message whose in-band word also returns per-connection
     * credits (value), so a reply carries the credits of the request it answers ({@link InBandControl}).
     */
    static final int DATA_CREDIT = 6;

    private final VerbsEngine engine;
    private final MemorySegment offerScratch;
    FastPathRing[] rings = new FastPathRing[0];
    int[] ringPeers = new int[0];
    /** Some endpoint owes its peer a control message that could not be posted yet. */
    boolean pending;

    EagerControl(VerbsEngine engine, Arena arena) {
        this.engine = engine;
        this.offerScratch = arena.allocate(64, 64);
    }

    /** A control message arrived from {@code ep}'s peer (its body, if any, at {@code offset}). */
    void received(VerbsEndpoint ep, int immediate, MemorySegment buffer, long offset) {
        int type = immediate >>> SHIFT;
        int value = immediate & ((1 << SHIFT) - 1);
        switch (type) {
            case CREDIT_SR -> ep.sr.grant(value);
            case CREDIT_RING -> ep.ringCredit(value);
            case RING_OFFER -> ep.decodeOffer(buffer, offset);
            case RING_START -> {
                ep.inboundStarted = true;
                addRing(ep);
            }
            case FIRST -> {
                engine.counters.firstMessagesReceived++;
                engine.firstMessage.accept(ep);
            }
            default -> LOG.warn("verbs: unknown control message {} from rank {}", type, ep.peer);
        }
    }

    /** Offers {@code ep}'s peer a dedicated RDMA ring (receiver-driven adaptive fast path). */
    void offerRing(VerbsEndpoint ep) {
        VerbsOptions o = engine.options;
        ep.inbound = new FastPathRing(engine.pd, engine.arena, o.fastPathSlots(), o.eagerSize());
        engine.counters.fastPathPeers++;
        engine.counters.allocated(ep.inbound.bytes());
        ep.offerPending = true;
        flush(ep);
    }

    private void addRing(VerbsEndpoint ep) {
        int n = rings.length;
        FastPathRing[] r = Arrays.copyOf(rings, n + 1);
        int[] p = Arrays.copyOf(ringPeers, n + 1);
        r[n] = ep.inbound;
        p[n] = ep.peer;
        ringPeers = p;
        rings = r;
    }

    void returnRingCredits(VerbsEndpoint ep) {
        int n = ep.inbound.credits.pendingReturn();
        if (n > 0 && ep.sendControl(CREDIT_RING, n, null) == PostStatus.OK) {
            ep.inbound.credits.takeReturn();
            engine.counters.creditMessages++;
        } else if (n > 0) {
            pending = true;
        }
    }

    /** Sends what control messages {@code ep} owes its peer (offer, credit returns), as far as it can. */
    void flush(VerbsEndpoint ep) {
        if (ep.offerPending) {
            VerbsEndpoint.encodeOffer(offerScratch, ep.inbound);
            if (ep.sendControl(RING_OFFER, 0, offerScratch.asSlice(0, VerbsEndpoint.OFFER_LENGTH))
                    == PostStatus.OK) {
                ep.offerPending = false;
            } else {
                pending = true;
            }
        }
        if (ep.sr != null && ep.sr.pendingReturn() > 0 && ep.sr.returnDue()) {
            if (ep.sendControl(CREDIT_SR, ep.sr.pendingReturn(), null) == PostStatus.OK) {
                ep.sr.takeReturn();
                engine.counters.creditMessages++;
            } else {
                pending = true;
            }
        }
        if (ep.inbound != null && ep.inbound.credits.returnDue()) {
            returnRingCredits(ep);
        }
    }
}
