package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.verbatim.runtime.base.ErrorClass;

/** Argument checks of {@link Win} that do not need the window. */
final class WinArgs {
    private WinArgs() {
    }

    static int elementSize(Buffer b) {
        return switch (b) {
            case null -> 1;
            case ByteBuffer x -> 1;
            case CharBuffer x -> 2;
            case ShortBuffer x -> 2;
            case IntBuffer x -> 4;
            case FloatBuffer x -> 4;
            case LongBuffer x -> 8;
            case DoubleBuffer x -> 8;
            default -> 1;
        };
    }

    static MPIException badArg(Comm comm, String call, int cls, String reason) {
        return (comm == null ? MPI.COMM_WORLD : comm).raise(call, cls, reason);
    }

    /** {@code size} elements of {@code base} from its start, as native memory. */
    static MemorySegment windowMemory(Comm comm, String call, Buffer base, int size, int unit)
            throws MPIException {
        MPI.check();
        if (base == null || !base.isDirect()) {
            throw new IllegalArgumentException(call + ": the window memory must be a direct buffer");
        }
        if (size < 0) {
            throw badArg(comm, call, ErrorClass.ERR_SIZE, "negative size " + size);
        }
        MemorySegment whole = MemorySegment.ofBuffer(base.duplicate().clear());
        long bytes = (long) size * unit;
        if (bytes > whole.byteSize()) {
            throw badArg(comm, call, ErrorClass.ERR_SIZE, "size " + size + " exceeds the buffer's "
                    + base.capacity() + " elements");
        }
        return whole.asSlice(0, bytes);
    }

    static long allocBytes(Comm comm, String call, int size, int unit) throws MPIException {
        MPI.check();
        if (size < 0) {
            throw badArg(comm, call, ErrorClass.ERR_SIZE, "negative size " + size);
        }
        return (long) size * unit;
    }

    static int dispBytes(Comm comm, String call, int dispUnit, int unit) throws MPIException {
        if (dispUnit <= 0 || (long) dispUnit * unit > Integer.MAX_VALUE) {
            throw badArg(comm, call, ErrorClass.ERR_DISP, "invalid displacement unit " + dispUnit);
        }
        return dispUnit * unit;
    }

    static MemorySegment nativeSegment(MemorySegment m, String what) throws MPIException {
        if (m == null || !m.isNative()) {
            throw MPIException.of(ErrorClass.ERR_BUFFER, what + " must be a native MemorySegment");
        }
        return m;
    }

    /** The API's rule: a Buffer argument of an RMA call must be direct. */
    static Object direct(Buffer b) {
        if (b == null || !b.isDirect()) {
            throw new IllegalArgumentException("The origin must be a direct buffer.");
        }
        return b;
    }

    /** A NO_OP get-accumulate reads no origin data: its origin may be null. */
    static Object directOrNull(Buffer b, Op op) {
        return b == null && op == MPI.NO_OP ? null : direct(b);
    }

    static void checkRank(int rank, int size, boolean procNullAllowed) throws MPIException {
        if ((rank < 0 || rank >= size) && !(procNullAllowed && rank == MPI.PROC_NULL)) {
            throw MPIException.of(ErrorClass.ERR_RANK, "invalid rank " + rank + " (window of "
                    + size + " processes)");
        }
    }

    static int assertion(int assertion, int allowed) throws MPIException {
        if ((assertion & ~allowed) != 0) {
            throw MPIException.of(ErrorClass.ERR_ASSERT, "invalid assertion " + assertion
                    + " for this call");
        }
        return assertion;
    }
}
