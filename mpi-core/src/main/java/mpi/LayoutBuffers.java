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
 * Collectives work on the packed form instead ({@link #packedForSend}, {@link #packedForReceive}):
 * the schedules move bytes, and a packed element is {@code size} bytes long, so the collectives'
 * displacements use {@code byteSize} as the stride, which equals the extent for every other type.
 * Alltoall and allgather take their images from the schedule's pooled native scratch memory
 * ({@link #packedForSend(Schedule, Object, int, Datatype)}, {@link #writtenForReceive}); the
 * others pack into fresh heap arrays.
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

    /**
     * For a collective whose schedule is {@code s}: the packed bytes a send contributes, in
     * scratch memory of the schedule (native and pooled, returned when the schedule ends), so
     * the schedule's messages move from native memory with no staging copy.
     */
    static Collectives.Buf packedForSend(Schedule s, Object buf, int count, Datatype type)
            throws MPIException {
        Resolved r = forSend(buf, count, type);
        MemorySegment image = s.temp(r.bytes());
        packInto(r, image);
        return new Collectives.Buf(image, null);
    }

    /**
     * For a collective that writes every byte of the receive image (alltoall, allgather): the
     * image in scratch memory of the schedule, not filled first (the receive buffer's current
     * bytes are never read), unpacked into the buffer at the end.
     */
    static Collectives.Buf writtenForReceive(Schedule s, Object buf, int count, Datatype type)
            throws MPIException {
        Resolved r = forReceive(buf, count, type);
        MemorySegment image = s.temp(r.bytes());
        return new Collectives.Buf(image, () -> unpack(image, image.byteSize(), r));
    }

    private static void packInto(Resolved r, MemorySegment image) {
        r.shape().type().cursor(r.shape().count()).pack(r.base(), image, 0, r.bytes());
    }

    /** For collectives: the packed bytes a send contributes. */
    static Collectives.Buf packedForSend(Object buf, int count, Datatype type) throws MPIException {
        return new Collectives.Buf(pack(forSend(buf, count, type)), null);
    }

    /**
     * For collectives: a packed image of the receive buffer (its current bytes, so the parts
     * the collective does not write come back unchanged), unpacked into it at the end.
     */
    static Collectives.Buf packedForReceive(Object buf, int count, Datatype type)
            throws MPIException {
        Resolved r = forReceive(buf, count, type);
        MemorySegment image = pack(r);
        return new Collectives.Buf(image, () -> unpack(image, image.byteSize(), r));
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
     * byte {@code displs[i]} of {@code whole}) packed after block i-1; {@code packedAt[i]} is set
     * to where it went ({@code bytes[i]} is its packed length).
     */
    static MemorySegment packBlocks(MemorySegment whole, int[] counts, int[] displs,
                                    Datatype[] types, long[] bytes, long[] packedAt)
            throws MPIException {
        Resolved[] blocks = resolveBlocks(whole, counts, displs, types, bytes, packedAt, false);
        MemorySegment packed = MemorySegment.ofArray(new byte[Math.toIntExact(total(bytes))]);
        for (int i = 0; i < blocks.length; i++) {
            if (blocks[i] != null) {
                blocks[i].shape().type().cursor(counts[i]).pack(blocks[i].base(), packed,
                        packedAt[i], bytes[i]);
            }
        }
        return packed;
    }

    /** Alltoallw's receive side: the packed image of the blocks, unpacked into them at the end. */
    static Collectives.Buf packedBlocksForReceive(MemorySegment whole, int[] counts, int[] displs,
                                                  Datatype[] types, long[] bytes, long[] packedAt)
            throws MPIException {
        Resolved[] blocks = resolveBlocks(whole, counts, displs, types, bytes, packedAt, true);
        MemorySegment image = MemorySegment.ofArray(new byte[Math.toIntExact(total(bytes))]);
        for (int i = 0; i < blocks.length; i++) {
            if (blocks[i] != null) {
                blocks[i].shape().type().cursor(counts[i]).pack(blocks[i].base(), image,
                        packedAt[i], bytes[i]);
            }
        }
        return new Collectives.Buf(image, () -> {
            for (int i = 0; i < blocks.length; i++) {
                if (blocks[i] != null) {
                    blocks[i].shape().type().cursor(counts[i]).unpack(image, packedAt[i],
                            blocks[i].base(), bytes[i]);
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
