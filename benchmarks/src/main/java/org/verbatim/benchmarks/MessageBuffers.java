package org.verbatim.benchmarks;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * A send and a receive buffer of the largest message size, as {@code byte[]} or as direct
 * {@link ByteBuffer}s from {@link MPI#newByteBuffer}, and the calls the programs make on them.
 *
 * <p>Nonblocking calls on arrays are a Verbatim extension ({@code Comm.iSend(Object, ...)}); the
 * Open MPI Java bindings have only the {@code Buffer} overloads. They are looked up once so that
 * these sources also compile against Open MPI's mpi.jar, where {@link #nonblockingArrays} is false.
 */
final class MessageBuffers {
    private static final MethodHandle ARRAY_ISEND = arrayCall("iSend");
    private static final MethodHandle ARRAY_IRECV = arrayCall("iRecv");

    final boolean direct;
    private final byte[] sendArray;
    private final byte[] recvArray;
    private final ByteBuffer sendDirect;
    private final ByteBuffer recvDirect;

    MessageBuffers(boolean direct, int maxSize) {
        this.direct = direct;
        int n = Math.max(maxSize, 4);
        if (direct) {
            sendDirect = MPI.newByteBuffer(n);
            recvDirect = MPI.newByteBuffer(n);
            for (int i = 0; i < n; i++) {
                sendDirect.put(i, (byte) 'a');
                recvDirect.put(i, (byte) 'b');
            }
            sendArray = recvArray = null;
        } else {
            sendArray = new byte[n];
            recvArray = new byte[n];
            java.util.Arrays.fill(sendArray, (byte) 'a');
            java.util.Arrays.fill(recvArray, (byte) 'b');
            sendDirect = recvDirect = null;
        }
    }

    /** Whether nonblocking calls work with these buffers on the bindings in use. */
    boolean nonblockingAvailable() {
        return direct || nonblockingArrays();
    }

    static boolean nonblockingArrays() {
        return ARRAY_ISEND != null && ARRAY_IRECV != null;
    }

    void send(Comm comm, int size, int dest, int tag) throws MPIException {
        if (direct) {
            comm.send(sendDirect, size, MPI.BYTE, dest, tag);
        } else {
            comm.send(sendArray, size, MPI.BYTE, dest, tag);
        }
    }

    void recv(Comm comm, int size, int source, int tag) throws MPIException {
        if (direct) {
            comm.recv(recvDirect, size, MPI.BYTE, source, tag);
        } else {
            comm.recv(recvArray, size, MPI.BYTE, source, tag);
        }
    }

    Request iSend(Comm comm, int size, int dest, int tag) throws MPIException {
        return direct ? comm.iSend(sendDirect, size, MPI.BYTE, dest, tag)
                : arrayCall(ARRAY_ISEND, comm, sendArray, size, dest, tag);
    }

    Request iRecv(Comm comm, int size, int source, int tag) throws MPIException {
        return direct ? comm.iRecv(recvDirect, size, MPI.BYTE, source, tag)
                : arrayCall(ARRAY_IRECV, comm, recvArray, size, source, tag);
    }

    private static Request arrayCall(MethodHandle call, Comm comm, byte[] buf, int size, int peer,
                                     int tag) throws MPIException {
        try {
            return (Request) call.invokeExact(comm, (Object) buf, size, MPI.BYTE, peer, tag);
        } catch (MPIException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MethodHandle arrayCall(String name) {
        try {
            return MethodHandles.publicLookup().findVirtual(Comm.class, name, MethodType.methodType(
                    Request.class, Object.class, int.class, Datatype.class, int.class, int.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
