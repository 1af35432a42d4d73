package org.verbatim.runtime.p2p;

import java.lang.foreign.MemorySegment;
import org.verbatim.datatype.CommittedType;
import org.verbatim.datatype.DatatypeException;
import org.verbatim.datatype.FlatLayout;
import org.verbatim.datatype.LayoutCache;

/**
 * The receiver's layout in a multi-w CTS, sent once per (receiver, type): the datatype paper's
 * sender-side cache of the receiver's datatype. A CTS with {@link WireHeader#FLAG_LAYOUT_REF}
 * names the receiver's committed type by its process-unique id, with the element count and the
 * registered base address; the first time (for this pair of ranks) it also carries the type's
 * {@link FlatLayout} (a vector is one run: 56 + 32 bytes however many blocks). The sender keeps
 * what it received in a {@link LayoutCache}; the receiver keeps a mirror cache of what each
 * sender holds, updated only when a CTS has gone out (CTSs to one peer arrive in the order they
 * were posted), so both caches see the same uses and evict the same entries. A reference the
 * sender does not hold is therefore a protocol error, reported as such.
 *
 * <pre>
 *  CTS header (56) | type id (8) | element count (8) | base address (8) | flat bytes f (8) | f bytes
 * </pre>
 * Layouts given as block lists (not datatypes) still travel as (address, length) pairs
 * ({@link BlockWrites#encode}).
 */
final class CtsLayouts {
    static final int REF_SIZE = 32;
    /** Layouts cached per peer (both sides). */
    static final int CAPACITY = 64;
    private static final int VERSION = 0;

    /** Sender side: the receivers' layouts. */
    private final LayoutCache received = new LayoutCache(CAPACITY);
    /** Receiver side: what each sender holds of this process's layouts. */
    private final LayoutCache held = new LayoutCache(CAPACITY);

    /** True when {@code layout} can go by reference in a CTS body of at most {@code maxBody}. */
    static boolean byReference(Layout layout, long maxBody) {
        return layout instanceof TypeLayout t
                && REF_SIZE + t.shape().type().flatten().byteSize() <= maxBody;
    }

    /** Body bytes of the CTS for {@code layout} to {@code peer} now. */
    long bodySize(int peer, TypeLayout layout) {
        CommittedType type = layout.shape().type();
        return REF_SIZE + (held.contains(peer, type.id(), VERSION) ? 0 : type.flatten().byteSize());
    }

    /** Writes the body for {@code peer} into {@code out} (of {@link #bodySize} bytes). */
    void encode(int peer, TypeLayout layout, long baseAddress, MemorySegment out) {
        CommittedType type = layout.shape().type();
        boolean known = held.contains(peer, type.id(), VERSION);
        out.set(WireHeader.LONG, 0, type.id());
        out.set(WireHeader.LONG, 8, layout.shape().count());
        out.set(WireHeader.LONG, 16, baseAddress);
        if (known) {
            out.set(WireHeader.LONG, 24, 0L);
        } else {
            FlatLayout flat = type.flatten();
            out.set(WireHeader.LONG, 24, flat.byteSize());
            flat.writeTo(out, REF_SIZE);
        }
    }

    /** The CTS encoded for {@code peer} went out: the sender now holds (or used) the layout. */
    void posted(int peer, TypeLayout layout, boolean withFlat) {
        CommittedType type = layout.shape().type();
        if (withFlat) {
            held.put(peer, type.id(), VERSION, type);
        } else {
            held.find(peer, type.id(), VERSION);
        }
    }

    /**
     * Sender side: the receiver's blocks named by the body at {@code at} ({@code body} bytes) of a
     * CTS from {@code source}, as a cursor of addresses; null if the body is malformed or names
     * a layout this side does not hold, or holds fewer than {@code accepted} bytes.
     */
    BlockCursor decode(int source, MemorySegment m, long at, long body, long accepted) {
        if (body < REF_SIZE) {
            return null;
        }
        long id = m.get(WireHeader.LONG, at);
        long count = m.get(WireHeader.LONG, at + 8);
        long base = m.get(WireHeader.LONG, at + 16);
        long flat = m.get(WireHeader.LONG, at + 24);
        if (count < 0 || flat < 0 || flat != body - REF_SIZE) {
            return null;
        }
        CommittedType type;
        if (flat > 0) {
            try {
                type = FlatLayout.read(m.asSlice(at + REF_SIZE, flat), 0).commit();
            } catch (DatatypeException e) {
                return null;
            }
            received.put(source, id, VERSION, type);
        } else {
            type = received.find(source, id, VERSION);
            if (type == null) {
                return null;
            }
        }
        TypeLayout layout = new TypeLayout(type.shape(count));
        if (layout.size() < accepted) {
            return null;
        }
        return new BlockCursor(layout, base);
    }
}
