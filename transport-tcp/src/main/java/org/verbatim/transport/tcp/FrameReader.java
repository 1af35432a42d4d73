package org.verbatim.transport.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.verbatim.spi.CompletionHandler;
import org.verbatim.spi.support.RdmaEmulation;

/**
 * The receiving half of {@link TcpTransport}: reads what a peer's socket has into the link's
 * receive buffer and hands every whole frame up ({@link Frames}: a length, then the frame); a
 * partial frame stays until the rest arrives, so a half-received frame is never delivered. A
 * large frame of emulated RDMA data whose destination the emulation knows from its head
 * ({@link RdmaEmulation#placement}) is read straight into that destination instead of through
 * the buffer, which therefore never grows for RDMA data. Runs on the progressing thread.
 */
final class FrameReader {
    /** Frames from this size on may be received straight into place (emulated RDMA data). */
    static final int PLACE_MIN = 2 << 10;
    /** Most bytes one read takes into a receive buffer beyond the frame it must complete: a
     *  large frame's data beyond this is read straight into place, not copied there. */
    static final int READ_BURST = 16 << 10;
    /** Most bytes one read takes into heap memory being placed (a Java array's receive). */
    static final int HEAP_READ = 64 << 10;

    private final TcpTransport transport;
    private final RdmaEmulation emulation;
    private final CompletionHandler receiver;
    private final int eagerSize;
    /** The traffic timeline, or null. */
    private final TcpTrace trace;
    private long framesReceived;
    private long framesPlaced;

    FrameReader(TcpTransport transport, RdmaEmulation emulation, int eagerSize, TcpTrace trace) {
        this.transport = transport;
        this.emulation = emulation;
        this.receiver = emulation.handler();
        this.eagerSize = eagerSize;
        this.trace = trace;
    }

    long framesReceived() {
        return framesReceived;
    }

    long framesPlaced() {
        return framesPlaced;
    }

    /** Reads what {@code l}'s socket has and hands up every whole frame; the bytes read. */
    int read(PeerLink l) {
        if (l.in == null) {
            return 0;
        }
        int n;
        try {
            if (l.placing != null) {
                MemorySegment rest = l.placing.asSlice(l.placeDone);
                if (!rest.isNative() && rest.byteSize() > HEAP_READ) {
                    rest = rest.asSlice(0, HEAP_READ); // the JDK reads a heap buffer through a
                                                       // cached direct one of the read's size
                }
                n = l.channel.read(rest.asByteBuffer());
                if (n > 0) {
                    if (trace != null) {
                        trace.reads++;
                        trace.readBytes += n;
                    }
                    l.placeDone += n;
                    if (l.placeDone == l.placing.byteSize()) {
                        finishPlacement(l);
                    }
                    return n;
                }
            } else {
                // a burst, or the rest of a frame that must be whole in the buffer: never much
                // of a large frame that may be read straight into place once its head is here
                int limit = Math.max(l.frameEnd, l.in.position() + READ_BURST);
                l.in.limit(Math.min(l.in.capacity(), limit));
                n = l.channel.read(l.in);
            }
        } catch (IOException e) {
            transport.fail(l, "connection to rank " + l.peer + " (" + l.remote + ") broke: " + e.getMessage());
            return 0;
        }
        if (trace != null) {
            trace.reads++;
            if (n > 0) {
                trace.readBytes += n;
            } else {
                trace.readsEmpty++;
            }
        }
        if (n < 0) {
            if (l.byeReceived || transport.closing()) {
                transport.closeLink(l);
            } else {
                transport.fail(l, "rank " + l.peer + " (" + l.remote + ") closed its connection"
                        + (l.in.position() > 0 || l.placing != null ? " in the middle of a message" : "")
                        + " without finalizing");
            }
            return 0;
        }
        deliver(l); // also with nothing new: a frame waiting for its placement may go on now
        return n;
    }

    /** Hands up every complete frame in {@code l}'s receive buffer, keeps the partial rest. */
    private void deliver(PeerLink l) {
        MemorySegment m = l.inSegment;
        int end = l.in.position();
        int pos = 0;
        while (end - pos >= Frames.LENGTH_SIZE) {
            int length = m.get(ValueLayout.JAVA_INT_UNALIGNED, pos);
            if (length == Frames.BYE) {
                l.byeReceived = true;
                pos += Frames.LENGTH_SIZE;
                continue;
            }
            if (length < 0 || length > eagerSize) {
                transport.fail(l, "rank " + l.peer + " sent a malformed frame (length " + length + ")");
                return;
            }
            if (end - pos - Frames.LENGTH_SIZE < length) {
                if (length >= PLACE_MIN && !transport.closing()
                        && end - pos - Frames.LENGTH_SIZE >= RdmaEmulation.PLACEMENT_HEAD) {
                    pos = startPlacement(l, m, pos, end, length);
                }
                break;
            }
            framesReceived++;
            if (trace != null) {
                trace.framesIn++;
            }
            if (!transport.closing()) {
                receiver.onReceive(l.peer, m, pos + Frames.LENGTH_SIZE, length);
            }
            pos += Frames.LENGTH_SIZE + length;
        }
        if (pos > 0) {
            if (end > pos) {
                MemorySegment.copy(m, pos, m, 0, end - pos);
            }
            l.in.position(end - pos);
        }
        int left = end - pos;
        l.frameEnd = 0;
        if (left >= Frames.LENGTH_SIZE) {
            int length = l.inSegment.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
            if (length < PLACE_MIN || transport.closing()
                    || left - Frames.LENGTH_SIZE >= RdmaEmulation.PLACEMENT_HEAD) {
                // small, or declined by placement: the whole frame is read into the buffer
                int needed = Frames.LENGTH_SIZE + length;
                if (needed > l.in.capacity()) {
                    growReceiveBuffer(l, needed);
                }
                l.frameEnd = needed;
            }
        }
    }

    /**
     * The frame at {@code pos} is incomplete and large: if it is emulated RDMA data whose
     * destination is known, its header is kept, the data already here is copied into place, and
     * the rest will be read straight into place. Returns where parsing stops.
     */
    private int startPlacement(PeerLink l, MemorySegment m, int pos, int end, int length) {
        long at = pos + Frames.LENGTH_SIZE;
        MemorySegment dest = emulation.placement(l.peer, m, at, end - at, length);
        if (dest == null) {
            return pos;
        }
        long dataOffset = length - dest.byteSize(); // the handler's header: all of it is here
        if (dataOffset < 0 || dataOffset > Math.min(end - at, l.placeHead.byteSize())) {
            throw new IllegalStateException("placement of " + dest.byteSize() + " bytes of a "
                    + length + "-byte frame with " + (end - at) + " bytes of it here");
        }
        MemorySegment.copy(m, at, l.placeHead, 0, dataOffset);
        long here = Math.min(end - at - dataOffset, dest.byteSize());
        MemorySegment.copy(m, at + dataOffset, dest, 0, here);
        l.placing = dest;
        l.placeDone = here;
        l.placeLength = length;
        if (here == dest.byteSize()) {
            finishPlacement(l);
        }
        return (int) (at + dataOffset + here);
    }

    /** All the data of the frame being placed has arrived: the emulation finishes the message. */
    private void finishPlacement(PeerLink l) {
        l.placing = null;
        framesReceived++;
        if (trace != null) {
            trace.framesIn++;
        }
        framesPlaced++;
        emulation.placed(l.peer, l.placeHead, 0, l.placeLength);
    }

    /** Makes {@code l}'s receive buffer hold a frame of {@code needed} bytes (twice that). */
    private void growReceiveBuffer(PeerLink l, int needed) {
        ByteBuffer bigger = ByteBuffer.allocateDirect(Math.min(2 * needed,
                2 * (Frames.LENGTH_SIZE + eagerSize))).order(ByteOrder.nativeOrder());
        MemorySegment segment = MemorySegment.ofBuffer(bigger);
        int n = l.in.position();
        MemorySegment.copy(l.inSegment, 0, segment, 0, n);
        bigger.position(n);
        l.in = bigger;
        l.inSegment = segment;
    }
}
