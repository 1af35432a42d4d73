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
import org.verbatim.runtime.BaseType;
import org.verbatim.runtime.base.ErrorClass;

/**
 * Turns the user's buffer argument (a Java array, a heap or direct Buffer, or a MemorySegment)
 * into the memory segment of exactly the message's bytes, checking it first. As in Open MPI's
 * bindings, a Buffer starts at its slice start (arrayOffset for heap buffers, the address for
 * direct ones); position and limit are ignored.
 */
final class Buffers {
    private Buffers() {
    }

    /** The bytes a send reads: {@code count} elements of {@code type} from the buffer's start. */
    static MemorySegment forSend(Object buf, int count, Datatype type) throws MPIException {
        long bytes = type.bytes(count);
        if (buf instanceof boolean[] b) {
            checkLength(b.length, 1, bytes, buf);
            byte[] copy = new byte[(int) bytes];
            for (int i = 0; i < copy.length; i++) {
                copy[i] = (byte) (b[i] ? 1 : 0);
            }
            return MemorySegment.ofArray(copy);
        }
        return segment(buf, type, bytes);
    }

    /**
     * The bytes a receive writes. A boolean[] is received into a byte[] holding its current
     * values (so the elements a shorter message or a collective's gaps leave unwritten convert
     * back to themselves) and converted by {@link #booleanCopyBack}.
     */
    static MemorySegment forReceive(Object buf, int count, Datatype type) throws MPIException {
        long bytes = type.bytes(count);
        if (buf instanceof boolean[]) {
            return forSend(buf, count, type);
        }
        if (buf instanceof Buffer nb && nb.isReadOnly()) {
            throw MPIException.of(ErrorClass.ERR_BUFFER, "receive buffer is read-only");
        }
        return segment(buf, type, bytes);
    }

    /** For a boolean[] receive: converts the received bytes back; else null. */
    static Runnable booleanCopyBack(Object buf, MemorySegment received) {
        if (!(buf instanceof boolean[] b)) {
            return null;
        }
        return () -> {
            long n = received.byteSize();
            for (int i = 0; i < n; i++) {
                b[i] = received.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) != 0;
            }
        };
    }

    /**
     * For a boolean[] written only in some blocks (the v-variants, an in-place gather's root,
     * PROC_NULL neighbours): converts back {@code counts[i]} bytes at {@code displs[i]} of the
     * received bytes for every block i but {@code skip} (-1: none). No other element of the
     * array is written, so the gaps between the blocks keep their values.
     */
    static Runnable booleanCopyBack(boolean[] b, MemorySegment received, long[] counts,
                                    long[] displs, int skip) {
        return () -> {
            for (int i = 0; i < counts.length; i++) {
                if (i == skip) {
                    continue;
                }
                int from = Math.toIntExact(displs[i]);
                int end = Math.toIntExact(displs[i] + counts[i]);
                for (int j = from; j < end; j++) {
                    b[j] = received.get(java.lang.foreign.ValueLayout.JAVA_BYTE, j) != 0;
                }
            }
        };
    }

    static MemorySegment segment(Object buf, Datatype type, long bytes) throws MPIException {
        return sized(whole(buf, type), buf, type, bytes);
    }

    /** The first {@code bytes} of {@code whole}, the segment of {@code buf}; too small: ERR_BUFFER. */
    static MemorySegment sized(MemorySegment whole, Object buf, Datatype type, long bytes)
            throws MPIException {
        if (whole.byteSize() < bytes) {
            throw MPIException.of(ErrorClass.ERR_BUFFER, buf == null ? "buffer is null (valid "
                    + "only with count 0)" : "buffer too small: " + bytes + " bytes needed ("
                    + type + "), " + whole.byteSize() + " available");
        }
        return whole.byteSize() == bytes ? whole : whole.asSlice(0, bytes);
    }

    /**
     * The whole buffer as a segment (from its slice start), its class checked against the type.
     * A null buffer is an empty segment: valid for count 0 in every call, as in Open MPI.
     */
    static MemorySegment whole(Object buf, Datatype type) throws MPIException {
        if (buf == null) {
            return MemorySegment.NULL;
        }
        if (buf instanceof MemorySegment s) {
            return s;
        } else if (buf instanceof Buffer b) {
            return ofBuffer(b);
        } else if (buf.getClass().isArray()) {
            checkArrayType(buf, type);
            return ofArray(buf);
        }
        throw MPIException.of(ErrorClass.ERR_BUFFER, "buffer must be a Java array, a "
                + "java.nio.Buffer or a MemorySegment, not " + buf.getClass().getName());
    }

    private static void checkLength(int length, int elemSize, long bytes, Object buf)
            throws MPIException {
        if ((long) length * elemSize < bytes) {
            throw MPIException.of(ErrorClass.ERR_BUFFER, "buffer too small: " + bytes
                    + " bytes needed, " + buf.getClass().getSimpleName() + " holds "
                    + (long) length * elemSize);
        }
    }

    private static void checkArrayType(Object buf, Datatype type) throws MPIException {
        BaseType base = type.base;
        Class<?> c = buf.getClass();
        if (c == base.arrayClass() || (c == byte[].class && base == BaseType.BYTE)) {
            return;
        }
        checkReinterpreted(buf, type);
    }

    /**
     * Open MPI's rule for an array of another element type: its memory, in native order, may be
     * used with MPI.BYTE, MPI.CHAR or any type whose size divides the array's byte length (the
     * count stays in elements of the type, and an overrun is still refused by the caller).
     */
    private static void checkReinterpreted(Object buf, Datatype type) throws MPIException {
        Class<?> c = buf.getClass();
        BaseType base = type.base;
        long bytes = (long) java.lang.reflect.Array.getLength(buf) * elementSize(c);
        boolean asBytes = base == BaseType.BYTE || base == BaseType.CHAR;
        if (c != boolean[].class && base != BaseType.BOOLEAN && (asBytes
                || (type.byteSize > 0 && bytes % type.byteSize == 0))) {
            return;
        }
        throw MPIException.of(ErrorClass.ERR_TYPE, "buffer " + c.getSimpleName() + " ("
                + bytes + " bytes) does not match datatype " + type + " (expects "
                + base.arrayClass().getSimpleName() + ", or an array whose byte length is a "
                + "multiple of the type's " + type.byteSize + " bytes)");
    }

    private static int elementSize(Class<?> arrayClass) {
        Class<?> e = arrayClass.getComponentType();
        return e == long.class || e == double.class ? 8 : e == int.class || e == float.class ? 4
                : e == char.class || e == short.class ? 2 : 1;
    }

    private static MemorySegment ofArray(Object a) throws MPIException {
        return switch (a) {
            case byte[] x -> MemorySegment.ofArray(x);
            case char[] x -> MemorySegment.ofArray(x);
            case short[] x -> MemorySegment.ofArray(x);
            case int[] x -> MemorySegment.ofArray(x);
            case long[] x -> MemorySegment.ofArray(x);
            case float[] x -> MemorySegment.ofArray(x);
            case double[] x -> MemorySegment.ofArray(x);
            default -> throw MPIException.of(ErrorClass.ERR_BUFFER,
                    "unsupported array type " + a.getClass().getSimpleName());
        };
    }

    private static int elementSize(Buffer b) {
        return switch (b) {
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

    private static MemorySegment ofBuffer(Buffer b) throws MPIException {
        int elem = elementSize(b);
        long capacityBytes = (long) b.capacity() * elem;
        if (b.isDirect()) {
            // The segment keeps the buffer's own scope (alive while the buffer is reachable, and
            // equal for every view of one allocation), never the global scope of an address: a
            // pin-down cache tells buffers apart by scope, and a freed buffer's address comes
            // back in the next allocation (RDMA into the old registration lost messages).
            boolean asIs = b.position() == 0 && b.limit() == b.capacity();
            Buffer whole = asIs ? b : b.duplicate().clear();
            return MemorySegment.ofBuffer(whole);
        }
        if (!b.hasArray()) {
            throw MPIException.of(ErrorClass.ERR_BUFFER,
                    "read-only heap buffers are not supported (no accessible array)");
        }
        MemorySegment array = ofArray(b.array());
        return array.asSlice((long) b.arrayOffset() * elem, capacityBytes);
    }
}
