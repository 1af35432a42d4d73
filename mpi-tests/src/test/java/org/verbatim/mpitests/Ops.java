package org.verbatim.mpitests;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import mpi.Comm;
import mpi.MPIException;
import mpi.Request;

/** Calls the overload matching the static buffer kind (Buffer, MemorySegment, or array). */
final class Ops {
    private Ops() {
    }

    static Request iRecv(Comm comm, TestBuffer b, int source, int tag) throws MPIException {
        return switch (b.buf) {
            case Buffer x -> comm.iRecv(x, b.count, b.type, source, tag);
            case MemorySegment x -> comm.iRecv(x, b.count, b.type, source, tag);
            default -> comm.iRecv(b.buf, b.count, b.type, source, tag);
        };
    }

    static Request iSend(Comm comm, TestBuffer b, int dest, int tag) throws MPIException {
        return switch (b.buf) {
            case Buffer x -> comm.iSend(x, b.count, b.type, dest, tag);
            case MemorySegment x -> comm.iSend(x, b.count, b.type, dest, tag);
            default -> comm.iSend(b.buf, b.count, b.type, dest, tag);
        };
    }

    static boolean isBuffer(TestBuffer b) {
        return b.buf instanceof Buffer;
    }
}
