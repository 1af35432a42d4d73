package mpi;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.ErrorClass;

/**
 * The argument checks and buffer resolution of the point-to-point and collective calls of a
 * {@link Comm}, shared by the facades that take such arguments ({@code Comm} and its subclasses,
 * {@link Message}, {@link CommCreation}, {@link Collectives}, {@link GroupCollectives}): counts
 * and datatypes, ranks against the communicator's size, tags; a buffer as the memory segment of
 * its bytes (remembered per communicator, {@link SegmentCache}) or as a derived layout over its
 * whole extent ({@link LayoutBuffers}). Each failure goes through the communicator's error
 * handler ({@link Comm#raise}) before anything is sent. Static: these sit on every call's path
 * and inline into it.
 */
final class CommArgs {
    private CommArgs() {
    }

    static void checkCountType(Comm c, String call, int count, Datatype type)
            throws MPIException {
        if (count < 0) {
            throw c.raise(call, ErrorClass.ERR_COUNT, "negative count " + count);
        }
        if (type == null) {
            throw c.raise(call, ErrorClass.ERR_TYPE, "datatype is null");
        }
        try {
            type.check();
        } catch (MPIException e) {
            throw c.raise(call, ErrorClass.ERR_TYPE, e.getMessage());
        }
    }

    static void checkDest(Comm c, String call, int dest) throws MPIException {
        if (dest != MPI.PROC_NULL && (dest < 0 || dest >= c.remote.length)) {
            throw c.raise(call, ErrorClass.ERR_RANK, "invalid destination rank " + dest
                    + " (communicator size " + c.remote.length + ")");
        }
    }

    static void checkSource(Comm c, String call, int source) throws MPIException {
        if (source != MPI.PROC_NULL && source != MPI.ANY_SOURCE
                && (source < 0 || source >= c.remote.length)) {
            throw c.raise(call, ErrorClass.ERR_RANK, "invalid source rank " + source
                    + " (communicator size " + c.remote.length + ")");
        }
    }

    static void checkSendTag(Comm c, String call, int tag) throws MPIException {
        if (tag < 0 || tag > MPI.TAG_UB_VALUE) {
            throw c.raise(call, ErrorClass.ERR_TAG, "invalid tag " + tag + " (valid: 0.."
                    + MPI.TAG_UB_VALUE + ")");
        }
    }

    static void checkRecvTag(Comm c, String call, int tag) throws MPIException {
        if (tag != MPI.ANY_TAG && (tag < 0 || tag > MPI.TAG_UB_VALUE)) {
            throw c.raise(call, ErrorClass.ERR_TAG, "invalid tag " + tag + " (valid: 0.."
                    + MPI.TAG_UB_VALUE + " or MPI.ANY_TAG)");
        }
    }

    /** The bytes {@code count} elements of {@code type} in {@code buf} occupy, to send. */
    static MemorySegment sendSegment(Comm c, String call, Object buf, int count, Datatype type)
            throws MPIException {
        long bytes = (long) count * type.byteSize;
        SegmentCache segments = c.segments;
        MemorySegment cached = segments.find(buf, bytes, type.base);
        if (cached != null) {
            return cached;
        }
        try {
            MemorySegment seg = Buffers.forSend(buf, count, type);
            if (!(buf instanceof boolean[])) {
                segments.remember(buf, bytes, type.base, seg);
            }
            return seg;
        } catch (MPIException e) {
            throw c.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    /** As {@link #sendSegment}, to receive into (a read-only buffer is refused). */
    static MemorySegment recvSegment(Comm c, String call, Object buf, int count, Datatype type)
            throws MPIException {
        long bytes = (long) count * type.byteSize;
        SegmentCache segments = c.segments;
        MemorySegment cached = segments.find(buf, bytes, type.base);
        if (cached != null && !(buf instanceof java.nio.Buffer b && b.isReadOnly())) {
            return cached;
        }
        try {
            MemorySegment seg = Buffers.forReceive(buf, count, type);
            if (!(buf instanceof boolean[])) {
                segments.remember(buf, bytes, type.base, seg);
            }
            return seg;
        } catch (MPIException e) {
            throw c.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    /** A send buffer under a derived layout type, checked to hold the whole layout. */
    static LayoutBuffers.Resolved layoutSend(Comm c, String call, Object buf, int count,
                                             Datatype type) throws MPIException {
        try {
            return LayoutBuffers.forSend(buf, count, type);
        } catch (MPIException e) {
            throw c.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    /** A receive buffer under a derived layout type, checked as {@link #layoutSend} and for overlap. */
    static LayoutBuffers.Resolved layoutReceive(Comm c, String call, Object buf, int count,
                                                Datatype type) throws MPIException {
        try {
            return LayoutBuffers.forReceive(buf, count, type);
        } catch (MPIException e) {
            throw c.raise(call, e.getErrorClass(), e.getMessage());
        }
    }
}
