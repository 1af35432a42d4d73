package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.coll.CollGroup;
import org.verbatim.runtime.coll.Reducer;
import org.verbatim.runtime.coll.Schedule;

/**
 * What every collective call shares: argument checks (before anything is sent), buffer
 * resolution, building the schedule on the communicator's collective context, and running it
 * (blocking) or returning it as a Request (nonblocking; the progress engine advances it).
 */
final class Collectives {
    private Collectives() {
    }

    /**
     * A resolved buffer: the bytes, and what to do once the collective has written them. Under a
     * derived layout type the bytes are the packed image ({@link LayoutBuffers}), so
     * displacements in elements count {@code type.byteSize} bytes each.
     */
    record Buf(MemorySegment seg, Runnable copyBack) {
    }

    static Schedule schedule(Comm c) {
        return new Schedule(new CollGroup(c.engine(), c.collectiveContext(), c.rank, c.world,
                c.process.collSettings()), c.nextCollectiveTag());
    }

    static void begin(Comm c, String call) throws MPIException {
        MPI.check();
        c.checkUsable(call);
    }

    static void checkCount(Comm c, String call, int count, Datatype type) throws MPIException {
        CommArgs.checkCountType(c, call, count, type);
    }

    static void checkRoot(Comm c, String call, int root) throws MPIException {
        if (root < 0 || root >= c.world.length) {
            throw c.raise(call, ErrorClass.ERR_ROOT, "invalid root " + root + " (communicator size "
                    + c.world.length + ")");
        }
    }

    static void checkArray(Comm c, String call, int[] a, int n, String what) throws MPIException {
        if (a == null) {
            throw c.raise(call, ErrorClass.ERR_ARG, what + " is null");
        }
        if (a.length < n) {
            throw c.raise(call, ErrorClass.ERR_ARG, what + " has " + a.length + " entries, "
                    + n + " needed");
        }
        for (int i = 0; i < n; i++) {
            if (a[i] < 0) {
                throw c.raise(call, what.contains("count") ? ErrorClass.ERR_COUNT : ErrorClass.ERR_ARG,
                        what + "[" + i + "] is negative: " + a[i]);
            }
        }
    }

    static void checkOp(Comm c, String call, Op op, Datatype type) throws MPIException {
        if (op == null) {
            throw c.raise(call, ErrorClass.ERR_OP, "op is null");
        }
        try {
            op.check(type);
        } catch (MPIException e) {
            throw c.raise(call, ErrorClass.ERR_OP, e.getMessage());
        }
    }

    /**
     * The bytes a send contributes. A layout type is packed into a {@link PackedImage} in the
     * schedule's pooled native scratch memory; other types are the user's buffer itself (a
     * boolean[] through a byte[] copy).
     */
    static Buf send(Comm c, String call, Schedule s, Object buf, int count, Datatype type)
            throws MPIException {
        try {
            if (type.isLayout()) {
                return new Buf(PackedImage.forSend(s, buf, count, type).packAll().segment(), null);
            }
            return new Buf(Buffers.forSend(buf, count, type), null);
        } catch (MPIException e) {
            throw raised(c, call, e);
        }
    }

    /**
     * The send buffer of a v-variant ({@code count} elements, the span of the blocks): under a
     * layout type only the blocks sent are packed ({@code counts[i]} bytes at {@code displs[i]}
     * of the image, all but block {@code skip}, -1 for none); the gaps between them are not.
     */
    static Buf sendBlocks(Comm c, String call, Schedule s, Object buf, int count, Datatype type,
                          long[] counts, long[] displs, int skip) throws MPIException {
        if (!type.isLayout()) {
            return send(c, call, s, buf, count, type);
        }
        try {
            return new Buf(PackedImage.forSend(s, buf, count, type)
                    .packBlocks(counts, displs, skip).segment(), null);
        } catch (MPIException e) {
            throw raised(c, call, e);
        }
    }

    /**
     * The receive buffer of a collective that writes every byte of it (bcast at a non-root,
     * gather at the root, scatter, allgather, alltoall, the reductions' results): a layout type
     * gets an image in the schedule's scratch memory, not filled from the buffer first (its
     * current bytes are never read), unpacked into it as the schedule's last step.
     */
    static Buf recvWritten(Comm c, String call, Schedule s, Object buf, int count, Datatype type)
            throws MPIException {
        if (!type.isLayout()) {
            return recv(c, call, buf, count, type);
        }
        try {
            PackedImage image = PackedImage.forReceive(s, buf, count, type);
            return new Buf(image.segment(), image.unpackAll());
        } catch (MPIException e) {
            throw raised(c, call, e);
        }
    }

    /**
     * The receive buffer of a collective that writes {@code counts[i]} bytes at byte
     * {@code displs[i]} of the image for each block i but {@code skip} (-1: none), and nothing
     * else (the v-variants, whose blocks may leave gaps; an in-place gather's root): under a
     * layout type only those blocks are unpacked, so every other byte of the buffer is unchanged.
     */
    static Buf recvBlocks(Comm c, String call, Schedule s, Object buf, int count, Datatype type,
                          long[] counts, long[] displs, int skip) throws MPIException {
        if (!type.isLayout()) {
            return buf instanceof boolean[] ? booleanBlocks(c, call, buf, count, type, counts,
                    displs, skip) : recv(c, call, buf, count, type);
        }
        try {
            PackedImage image = PackedImage.forReceive(s, buf, count, type);
            return new Buf(image.segment(), image.unpackBlocks(counts, displs, skip));
        } catch (MPIException e) {
            throw raised(c, call, e);
        }
    }

    /** As {@link #recvBlocks} for {@code n} blocks of {@code block} bytes, in order. */
    static Buf recvBlocks(Comm c, String call, Schedule s, Object buf, int count, Datatype type,
                          int n, long block, int skip) throws MPIException {
        if (!type.isLayout()) {
            return buf instanceof boolean[] ? booleanBlocks(c, call, buf, count, type,
                    RootedCollectives.equalCounts(n, block), RootedCollectives.equalDispls(n, block),
                    skip) : recv(c, call, buf, count, type);
        }
        try {
            PackedImage image = PackedImage.forReceive(s, buf, count, type);
            return new Buf(image.segment(), image.unpackBlocks(n, block, skip));
        } catch (MPIException e) {
            throw raised(c, call, e);
        }
    }

    /**
     * The buffer of an in-place allgather(v): block {@code own} is this rank's contribution, read
     * from the buffer; every other block is written. Under a layout type only block {@code own}
     * is packed and only the others are unpacked. (Other types: the buffer itself; a boolean[]
     * with blocks ({@code counts} not null) through a byte[] holding its values, of which only
     * the other blocks are converted back; without, as for {@link #recv}, the caller passing its
     * own block separately.)
     */
    static Buf inPlaceBlocks(Comm c, String call, Schedule s, Object buf, int count,
                             Datatype type, long[] counts, long[] displs, int own)
            throws MPIException {
        if (!type.isLayout()) {
            // a boolean[] with blocks: block own is read from the array, the others written
            return buf instanceof boolean[] && counts != null ? booleanBlocks(c, call, buf, count,
                    type, counts, displs, own) : recv(c, call, buf, count, type);
        }
        try {
            PackedImage image = PackedImage.forReceive(s, buf, count, type)
                    .pack(displs[own], counts[own]);
            return new Buf(image.segment(), image.unpackBlocks(counts, displs, own));
        } catch (MPIException e) {
            throw raised(c, call, e);
        }
    }

    /**
     * A buffer both read and written (the in-place reductions): a layout type is packed into an
     * image in the schedule's scratch memory and its first {@code written} bytes unpacked at the
     * end (all of it but for an in-place reduce-scatter, whose result is the first block); a
     * boolean[] is converted both ways.
     */
    static Buf inout(Comm c, String call, Schedule s, Object buf, int count, Datatype type,
                     long written) throws MPIException {
        try {
            if (type.isLayout()) {
                PackedImage image = PackedImage.forReceive(s, buf, count, type).packAll();
                return new Buf(image.segment(), image.unpackRange(0, written));
            }
            if (buf instanceof boolean[]) {
                MemorySegment in = Buffers.forSend(buf, count, type);
                return new Buf(in, Buffers.booleanCopyBack(buf, in));
            }
        } catch (MPIException e) {
            throw raised(c, call, e);
        }
        return recv(c, call, buf, count, type);
    }

    /** As {@link #inout(Comm, String, Schedule, Object, int, Datatype, long)}, all written. */
    static Buf inout(Comm c, String call, Schedule s, Object buf, int count, Datatype type)
            throws MPIException {
        return inout(c, call, s, buf, count, type, type.bytes(count));
    }

    /** A receive into the user's buffer (no layout type): a boolean[] through a byte[]. */
    private static Buf recv(Comm c, String call, Object buf, int count, Datatype type)
            throws MPIException {
        try {
            MemorySegment seg = Buffers.forReceive(buf, count, type);
            return new Buf(seg, Buffers.booleanCopyBack(buf, seg));
        } catch (MPIException e) {
            throw raised(c, call, e);
        }
    }

    /**
     * A boolean[] (no layout type) of which only the blocks are written: received into a byte[]
     * holding the array's values (the block an in-place call reads among them) and converted back
     * block by block, so no element outside the written blocks is written.
     */
    private static Buf booleanBlocks(Comm c, String call, Object buf, int count, Datatype type,
                                     long[] counts, long[] displs, int skip) throws MPIException {
        try {
            MemorySegment seg = Buffers.forReceive(buf, count, type);
            return new Buf(seg, Buffers.booleanCopyBack((boolean[]) buf, seg, counts, displs,
                    skip));
        } catch (MPIException e) {
            throw raised(c, call, e);
        }
    }

    private static MPIException raised(Comm c, String call, MPIException e) throws MPIException {
        return c.raise(call, e.getErrorClass(), e.getMessage());
    }

    /**
     * Builds a collective's schedule with {@code body}, giving the schedule's scratch memory
     * back if the call fails before the schedule starts (bad input found while resolving the
     * buffers, after images were taken).
     */
    static Request build(Schedule s, Body body) throws MPIException {
        try {
            return body.run(s);
        } catch (MPIException | RuntimeException e) {
            s.discard();
            throw e;
        }
    }

    /** What {@link #build} runs. */
    interface Body {
        Request run(Schedule s) throws MPIException;
    }

    static boolean commutative(Op op) {
        return op.isCommutative();
    }

    /** The local group of an inter-communicator, on its own context (+3). */
    static CollGroup localGroup(Comm c) {
        return new CollGroup(c.engine(), c.context + 3, c.rank, c.world, c.process.collSettings());
    }

    /** The remote group of an inter-communicator (cross context, +1). */
    static CollGroup remoteGroup(Comm c) {
        return new CollGroup(c.engine(), c.collectiveContext(), c.rank, c.remote,
                c.process.collSettings());
    }

    static Reducer reducer(Op op, Datatype type) {
        return op.reducer(type);
    }

    static long[] bytes(int[] counts, int n, int unit) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = (long) counts[i] * unit;
        }
        return out;
    }

    /** Elements needed in a buffer addressed by counts and displacements (in elements). */
    static int span(int[] counts, int[] displs, int n) {
        long max = 0;
        for (int i = 0; i < n; i++) {
            if (counts[i] > 0) {
                max = Math.max(max, (long) displs[i] + counts[i]);
            }
        }
        return (int) max;
    }

    /**
     * Runs the schedule to completion (blocking, returns null) or starts it and returns its
     * Request (nonblocking). Copy-backs run as the schedule's last step.
     */
    static Request finish(Comm c, String call, Schedule s, boolean nonblocking, Object keep,
                          Runnable... copyBacks) throws MPIException {
        for (Runnable r : copyBacks) {
            if (r != null) {
                s.local(r);
            }
        }
        try {
            if (!nonblocking) {
                s.run();
                return null;
            }
            s.start();
        } catch (MpiError e) {
            throw c.raise(call, e);
        }
        Request r = new Request(s, c, call);
        r.keepAlive = keep;
        return r;
    }
}
