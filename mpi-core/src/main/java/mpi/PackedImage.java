package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.datatype.TypeCursor;
import org.verbatim.runtime.coll.Schedule;

/**
 * The packed image of a layout-typed user buffer ({@link Datatype#isLayout()}) for one
 * collective: {@code count} elements packed back to back, {@code byteSize} bytes each, in the
 * schedule's pooled native scratch memory ({@link Schedule#temp}), so the schedule's messages move
 * from native memory to native memory (one cross-memory-attach copy per message over shm) and
 * the image goes back to the engine's pool when the schedule ends, fails or is discarded.
 *
 * <p>The image starts unfilled: the caller packs what the collective sends from it (all of it,
 * or some byte ranges, {@link #pack}) and unpacks, as the schedule's last step, exactly the
 * ranges the collective writes into it ({@link #unpackAll}, {@link #unpackBlocks}). Bytes of the
 * receive buffer the collective does not write (the gaps between the blocks of a v-variant, the
 * root's own block of an in-place gather, the block of a PROC_NULL neighbour) are never read and
 * never written, so they come back unchanged without the image being filled from the buffer first.
 * The data is packed once and unpacked once.
 */
final class PackedImage {
    private final LayoutBuffers.Resolved buffer;
    private final MemorySegment image;
    private final TypeCursor cursor;

    private PackedImage(LayoutBuffers.Resolved buffer, MemorySegment image) {
        this.buffer = buffer;
        this.image = image;
        this.cursor = buffer.shape().cursor();
    }

    /** An unfilled image of a send buffer (checked before any memory is taken). */
    static PackedImage forSend(Schedule s, Object buf, int count, Datatype type)
            throws MPIException {
        LayoutBuffers.Resolved r = LayoutBuffers.forSend(buf, count, type);
        return new PackedImage(r, s.temp(r.bytes()));
    }

    /** An unfilled image of a receive (or in-place) buffer, checked to be writable. */
    static PackedImage forReceive(Schedule s, Object buf, int count, Datatype type)
            throws MPIException {
        LayoutBuffers.Resolved r = LayoutBuffers.forReceive(buf, count, type);
        return new PackedImage(r, s.temp(r.bytes()));
    }

    MemorySegment segment() {
        return image;
    }

    /** Packs the whole message into the image. */
    PackedImage packAll() {
        return pack(0, image.byteSize());
    }

    /** Packs the message's bytes [from, from + n) into the image at the same offset. */
    PackedImage pack(long from, long n) {
        if (n > 0) {
            cursor.seek(from).pack(buffer.base(), image, from, n);
        }
        return this;
    }

    /**
     * Packs the blocks the collective sends: block i is {@code counts[i]} bytes at
     * {@code displs[i]}; block {@code skip} (or none, -1) is left out.
     */
    PackedImage packBlocks(long[] counts, long[] displs, int skip) {
        for (int i = 0; i < counts.length; i++) {
            if (i != skip) {
                pack(displs[i], counts[i]);
            }
        }
        return this;
    }

    /** The last step for a collective that writes every byte of the image: unpack it all. */
    Runnable unpackAll() {
        return unpackRange(0, image.byteSize());
    }

    /** The last step for a collective that writes the first {@code n} bytes of the image. */
    Runnable unpackRange(long from, long n) {
        return () -> {
            unpack(from, n);
            done();
        };
    }

    /**
     * The last step for a collective that writes {@code counts[i]} bytes at {@code displs[i]}
     * of the image for every block i except {@code skip} (-1: none); nothing else is unpacked.
     */
    Runnable unpackBlocks(long[] counts, long[] displs, int skip) {
        return () -> {
            for (int i = 0; i < counts.length; i++) {
                if (i != skip) {
                    unpack(displs[i], counts[i]);
                }
            }
            done();
        };
    }

    /** As {@link #unpackBlocks(long[], long[], int)} for {@code n} blocks of {@code block} bytes. */
    Runnable unpackBlocks(int n, long block, int skip) {
        return () -> {
            for (int i = 0; i < n; i++) {
                if (i != skip) {
                    unpack(i * block, block);
                }
            }
            done();
        };
    }

    private void unpack(long from, long n) {
        if (n > 0) {
            cursor.seek(from).unpack(image, from, buffer.base(), n);
        }
    }

    /** A boolean[] buffer was staged as bytes: convert them back. */
    private void done() {
        if (buffer.copyBack() != null) {
            buffer.copyBack().run();
        }
    }
}
