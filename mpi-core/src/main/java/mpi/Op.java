package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.verbatim.runtime.BaseType;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.coll.Reducer;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;
import org.verbatim.runtime.op.Reduction;

/**
 * A reduction operation: one of the predefined operations in {@link MPI} ({@code MPI.SUM}, ...)
 * or a user operation made from a {@link UserFunction}.
 *
 * <p>For collectives the class offers two package-private calls, both free of the Init check and
 * safe to call before anything is sent: {@link #check(Datatype)} refuses an operation that is
 * freed or not defined on the datatype, and {@link #apply} computes
 * {@code inout[i] = in[i] op inout[i]}. Predefined operations run the allocation-free kernels of
 * {@link Reduction} and give exactly Open MPI's results; user operations are called with direct,
 * native-order ByteBuffers as in Open MPI's bindings (boolean[] arrays for BOOLEAN).
 */
public final class Op implements Freeable {
    private final OpCode code;
    private final UserFunction function;
    private final boolean commute;
    /** A user op has no MPI handle until first use: until then {@link #isNull()} is true. */
    private boolean used;
    private boolean freed;
    /** The reducer bound to the last datatype used (immutable, so a racy read sees all or none). */
    private Bound bound;

    private record Bound(Datatype type, Reducer reducer) {
    }

    /** A predefined operation. */
    Op(OpCode code) {
        this.code = code;
        this.function = null;
        this.commute = true;
    }

    /**
     * A user operation.
     *
     * @param function computes {@code inout = in op inout}; applied to elements in rank order
     * @param commute whether the operation is commutative (collectives may then reorder operands)
     */
    public Op(UserFunction function, boolean commute) {
        this.code = null;
        this.function = function;
        this.commute = commute;
    }

    /** True if the operation is commutative (MPI_Op_commutative). */
    public boolean isCommutative() {
        return commute;
    }

    /**
     * Frees a user operation; afterwards {@link #isNull()} is true and collectives refuse it with
     * {@code MPI.ERR_OP}. Freeing a freed operation does nothing. Predefined operations cannot be
     * freed (MPI_ERR_OP, raised through {@code MPI.COMM_WORLD}'s error handler).
     */
    @Override
    public void free() throws MPIException {
        if (code != null) {
            MPI.check();
            throw MPI.COMM_WORLD.raise("MPI_Op_free", ErrorClass.ERR_OP,
                    "cannot free predefined operation " + code.mpiName());
        }
        freed = true;
    }

    /** True when freed, and, as in Open MPI's bindings, for a user operation not yet used. */
    public boolean isNull() {
        return freed || (code == null && !used);
    }

    /**
     * This operation on {@code type} as a collective's {@link Reducer}: built once per datatype
     * in a row, so a program reducing the same type again and again allocates nothing here.
     */
    Reducer reducer(Datatype type) {
        Bound b = bound;
        if (b == null || b.type != type) {
            b = new Bound(type, (in, inout, n) -> {
                try {
                    apply(in, inout, n, type);
                } catch (MPIException e) {
                    throw new MpiError(ErrorClass.ERR_OP, e.getMessage());
                }
            });
            bound = b;
        }
        return b.reducer;
    }

    /** The predefined operation, or null for a user operation. */
    OpCode code() {
        return code;
    }

    /**
     * Throws {@code MPIException} with class {@code MPI.ERR_OP} unless this operation can reduce
     * elements of {@code type}: it must not be freed, a user operation needs a function, and a
     * predefined operation must be defined on the type (MAX on a pair type, BAND on DOUBLE, MAXLOC
     * on INT, ... are refused).
     */
    void check(Datatype type) throws MPIException {
        if (freed) {
            throw MPIException.of(ErrorClass.ERR_OP, "invalid operation: it has been freed");
        }
        if (code == null) {
            if (function == null) {
                throw MPIException.of(ErrorClass.ERR_OP, "user operation has no function (null)");
            }
            used = true;
            return;
        }
        kernelKind(type);
    }

    /** {@code inout[i] = in[i] op inout[i]} for {@code count} elements from offset 0. */
    void apply(MemorySegment in, MemorySegment inout, int count, Datatype type)
            throws MPIException {
        apply(in, 0, inout, 0, count, type);
    }

    /**
     * {@code inout[i] = in[i] op inout[i]} for {@code count} elements of {@code type}, starting at
     * the given byte offsets (so a collective can reduce a block of a larger buffer without
     * slicing). Each segment must hold {@code count * type.byteSize} bytes from its offset; heap
     * and native segments both work and may be the same memory only if they do not overlap.
     *
     * @throws MPIException ERR_OP as {@link #check}, ERR_COUNT for a negative count, ERR_BUFFER
     *         for a segment that is too small; whatever a user function throws
     */
    void apply(MemorySegment in, long inOffset, MemorySegment inout, long inoutOffset, int count,
               Datatype type) throws MPIException {
        if (count < 0) {
            throw MPIException.of(ErrorClass.ERR_COUNT, "negative count " + count);
        }
        if (freed) {
            throw MPIException.of(ErrorClass.ERR_OP, "invalid operation: it has been freed");
        }
        long bytes = type.bytes(count);
        if (inOffset < 0 || inoutOffset < 0 || in.byteSize() - inOffset < bytes
                || inout.byteSize() - inoutOffset < bytes) {
            throw MPIException.of(ErrorClass.ERR_BUFFER, "reduction of " + count + " x " + type
                    + " needs " + bytes + " bytes; in has " + (in.byteSize() - inOffset)
                    + ", inout has " + (inout.byteSize() - inoutOffset));
        }
        if (code != null) {
            ElementKind kind = kernelKind(type);
            long elements = kind == ElementKind.OPAQUE ? bytes : count;
            Reduction.reduce(code, kind, in, inOffset, inout, inoutOffset, elements);
        } else {
            check(type);
            if (count > 0) {
                callUser(in.asSlice(inOffset, bytes), inout.asSlice(inoutOffset, bytes), count,
                        type);
            }
        }
    }

    /**
     * The kernel element of {@code type} for this predefined operation. The predefined datatypes
     * map one to one; REPLACE and NO_OP also take any other type as opaque bytes. Derived types
     * will map here to their single underlying kind (with count scaled by elements per type).
     */
    private ElementKind kernelKind(Datatype type) throws MPIException {
        ElementKind kind = elementKind(type);
        if (kind == null && (code == OpCode.REPLACE || code == OpCode.NO_OP) && type != null) {
            kind = ElementKind.OPAQUE;
        }
        if (kind == null || !code.appliesTo(kind)) {
            throw MPIException.of(ErrorClass.ERR_OP, code.mpiName() + " is not defined for "
                    + (type == null ? "a null datatype" : "datatype " + type));
        }
        return kind;
    }

    /** The kernel element kind of a predefined datatype (identity); null for any other type. */
    static ElementKind elementKind(Datatype t) {
        if (t == MPI.DOUBLE) return ElementKind.FLOAT64;
        if (t == MPI.INT) return ElementKind.INT32;
        if (t == MPI.LONG) return ElementKind.INT64;
        if (t == MPI.FLOAT) return ElementKind.FLOAT32;
        if (t == MPI.BYTE || t == MPI.BOOLEAN) return ElementKind.UINT8;
        if (t == MPI.CHAR) return ElementKind.UINT16;
        if (t == MPI.SHORT) return ElementKind.INT16;
        if (t == MPI.DOUBLE_COMPLEX) return ElementKind.COMPLEX128;
        if (t == MPI.FLOAT_COMPLEX) return ElementKind.COMPLEX64;
        if (t == MPI.INT2) return ElementKind.INT_INT;
        if (t == MPI.DOUBLE_INT) return ElementKind.DOUBLE_INT;
        if (t == MPI.LONG_INT) return ElementKind.LONG_INT;
        if (t == MPI.FLOAT_INT) return ElementKind.FLOAT_INT;
        if (t == MPI.SHORT_INT) return ElementKind.SHORT_INT;
        if (t == MPI.PACKED) return ElementKind.OPAQUE;
        return null;
    }

    // ------------------------------------------------------------------ user functions

    /**
     * Calls the user function as Open MPI's bindings do: boolean[] arrays through the Object
     * variant for BOOLEAN types, else the ByteBuffer variant with direct native-order buffers of
     * exactly the operands' bytes. Native segments are passed in place; heap segments through a
     * native copy, with the inout result copied back.
     */
    private void callUser(MemorySegment in, MemorySegment inout, int count, Datatype type)
            throws MPIException {
        if (type.base == BaseType.BOOLEAN) {
            boolean[] a = toBooleans(in), b = toBooleans(inout);
            function.call(a, b, count, type);
            for (int i = 0; i < b.length; i++) {
                inout.set(ValueLayout.JAVA_BYTE, i, (byte) (b[i] ? 1 : 0));
            }
            return;
        }
        if (in.isNative() && inout.isNative()) {
            function.call(view(in), view(inout), count, type);
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = in.isNative() ? in : arena.allocate(in.byteSize()).copyFrom(in);
            MemorySegment b = inout.isNative() ? inout
                    : arena.allocate(inout.byteSize()).copyFrom(inout);
            function.call(view(a), view(b), count, type);
            if (b != inout) {
                inout.copyFrom(b);
            }
        }
    }

    private static ByteBuffer view(MemorySegment s) {
        return s.asByteBuffer().order(ByteOrder.nativeOrder());
    }

    private static boolean[] toBooleans(MemorySegment s) {
        boolean[] v = new boolean[(int) s.byteSize()];
        for (int i = 0; i < v.length; i++) {
            v[i] = s.get(ValueLayout.JAVA_BYTE, i) != 0;
        }
        return v;
    }

    /** The operation's name. */
    @Override
    public String toString() {
        return code != null ? code.mpiName()
                : "Op[user " + (function == null ? "null" : function.getClass().getName())
                        + (commute ? ", commutative" : ", non-commutative") + "]";
    }
}
