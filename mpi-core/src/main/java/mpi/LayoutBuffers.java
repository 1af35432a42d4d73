package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import org.verbatim.datatype.DatatypeException;
import org.verbatim.datatype.MessageShape;
import org.verbatim.runtime.coll.Schedule;
import org.verbatim.runtime.base.ErrorClass;

/**
 * User buffers under a derived type whose elements are not simply consecutive bytes (a
 * "layout" type, {@link Datatype#isLayout()}): the whole buffer as the base (the type's origin
 * at its start), checked to hold every byte the layout touches before anything is sent or
 * written. A boolean[] goes through a byte[] copy of the whole array, converted back after a
 * receive; the layout only writes its own bytes, so the gaps keep their values.
 *
 * <p>Point-to-point sends and receives pass the base and the layout to the runtime, which packs
 * and unpacks (the Generic scheme; into the eager slot where the transport lets it claim one).
 * Collectives work on the packed form instead ({@link PackedImage}, and {@link #packBlocks} for
 * alltoallw): the schedules move bytes, and a packed element is {@code size} bytes long, so the
 * collectives' displacements use {@code byteSize} as the stride, which equals the extent for
 * every other type. Every collective takes its images from the schedule's pooled native scratch
 * memory.
 */
final class LayoutBuffers {
    private LayoutBuffers() {
    }

    /** A resolved layout buffer: the base, the message's shape, what to run after a receive. */
    record Resolved(MemorySegment base, MessageShape shape, Runnable copyBack) {
        long bytes() {
            return shape.bytes();
        }
    }

    static Resolved forSend(Object buf, int count, Datatype type) throws MPIException {
        MessageShape shape = type.shape(count);
        MemorySegment base;
        if (buf instanceof boolean[] b) {
            byte[] copy = new byte[b.length];
            for (int i = 0; i < b.length; i++) {
                copy[i] = (byte) (b[i] ? 1 : 0);
            }
            base = MemorySegment.ofArray(copy);
        } else {
            base = Buffers.whole(buf, type);
        }
        fits(shape, base);
        return new Resolved(base, shape, null);
    }

    static Resolved forReceive(Object buf, int count, Datatype type) throws MPIException {
        MessageShape shape = type.shape(count);
        if (type.form.overlaps(count)) {
            throw MPIException.of(ErrorClass.ERR_TYPE, "receive type " + type + " (x" + count
                    + ") places two bytes at the same address");
        }
        if (buf instanceof Buffer nb && nb.isReadOnly()) {
            throw MPIException.of(ErrorClass.ERR_BUFFER, "receive buffer is read-only");
        }
        if (buf instanceof boolean[] b) {
            Resolved staged = forSend(buf, count, type);
            MemorySegment base = staged.base();
            return new Resolved(base, shape, () -> {
                for (int i = 0; i < b.length; i++) {
                    b[i] = base.get(ValueLayout.JAVA_BYTE, i) != 0;
                }
            });
        }
        MemorySegment base = Buffers.whole(buf, type);
        fits(shape, base);
        return new Resolved(base, shape, null);
    }

    private static void fits(MessageShape shape, MemorySegment base) throws MPIException {
        try {
            shape.checkFits(base.byteSize(), "buffer");
        } catch (DatatypeException e) {
            throw MPIException.of(DerivedTypes.errorClass(e), e.getMessage());
        }
    }

    /** The message packed into a fresh heap buffer. */
    static MemorySegment pack(Resolved r) {
        MemorySegment packed = MemorySegment.ofArray(new byte[Math.toIntExact(r.bytes())]);
        r.shape().type().cursor(r.shape().count()).pack(r.base(), packed, 0, r.bytes());
        return packed;
    }

    /** Unpacks {@code packed} (the message's bytes, or its first {@code n}) into the buffer. */
    static void unpack(MemorySegment packed, long n, Resolved r) {
        r.shape().type().cursor(r.shape().count()).unpack(packed, 0, r.base(), n);
        if (r.copyBack() != null) {
            r.copyBack().run();
        }
    }

    static boolean anyLayout(Datatype[] types, int n) {
        for (int i = 0; i < n; i++) {
            if (types[i].isLayout()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Alltoallw's send side with layout types: block i ({@code counts[i]} of {@code types[i]} at
     * byte {@code displs[i]} of {@code whole}) packed after block i-1 into scratch memory of the
     * schedule; {@code packedAt[i]} is set to where it went ({@code bytes[i]} is its length).
     */
    static MemorySegment packBlocks(Schedule s, MemorySegment whole, int[] counts, int[] displs,
                                    Datatype[] types, long[] bytes, long[] packedAt)
            throws MPIException {
        Resolved[] blocks = resolveBlocks(whole, counts, displs, types, bytes, packedAt, false);
        MemorySegment packed = s.temp(total(bytes));
        for (int i = 0; i < blocks.length; i++) {
            if (blocks[i] != null) {
                blocks[i].shape().cursor().pack(blocks[i].base(), packed, packedAt[i], bytes[i]);
            }
        }
        return packed;
    }

    /**
     * Alltoallw's receive side: the packed image of the blocks in scratch memory of the
     * schedule, not filled first (every block is written whole), each unpacked into its place at
     * the end; what lies between the blocks is never touched. Block {@code own} (-1: none) is
     * written only up to {@code ownBytes} (this rank's block to itself is copied locally, as much
     * of it as both sides hold), so only that much of it is unpacked.
     */
    static Collectives.Buf blocksForReceive(Schedule s, MemorySegment whole, int[] counts,
                                            int[] displs, Datatype[] types, long[] bytes,
                                            long[] packedAt, int own, long ownBytes)
            throws MPIException {
        Resolved[] blocks = resolveBlocks(whole, counts, displs, types, bytes, packedAt, true);
        MemorySegment image = s.temp(total(bytes));
        return new Collectives.Buf(image, () -> {
            for (int i = 0; i < blocks.length; i++) {
                if (blocks[i] != null) {
                    blocks[i].shape().cursor().unpack(image, packedAt[i], blocks[i].base(),
                            i == own ? Math.min(ownBytes, bytes[i]) : bytes[i]);
                }
            }
        });
    }

    private static Resolved[] resolveBlocks(MemorySegment whole, int[] counts, int[] displs,
                                            Datatype[] types, long[] bytes, long[] packedAt,
                                            boolean receive) throws MPIException {
        Resolved[] out = new Resolved[bytes.length];
        long at = 0;
        for (int i = 0; i < bytes.length; i++) {
            packedAt[i] = at;
            if (bytes[i] == 0) {
                continue;
            }
            if (displs[i] < 0 || displs[i] > whole.byteSize()) {
                throw MPIException.of(ErrorClass.ERR_BUFFER, "displacement " + displs[i]
                        + " outside a buffer of " + whole.byteSize() + " bytes");
            }
            if (receive && types[i].isLayout() && types[i].form.overlaps(counts[i])) {
                throw MPIException.of(ErrorClass.ERR_TYPE, "receive type " + types[i]
                        + " places two bytes at the same address");
            }
            MemorySegment base = whole.asSlice(displs[i]);
            MessageShape shape = types[i].shape(counts[i]);
            fits(shape, base);
            out[i] = new Resolved(base, shape, null);
            at += bytes[i];
        }
        return out;
    }

    private static long total(long[] bytes) {
        long t = 0;
        for (long b : bytes) {
            t += b;
        }
        return t;
    }
}
