package mpi;

import java.util.function.Supplier;
import org.verbatim.datatype.Contents;
import org.verbatim.datatype.DatatypeException;
import org.verbatim.datatype.TypeNode;
import org.verbatim.datatype.Types;
import org.verbatim.runtime.BaseType;
import org.verbatim.runtime.base.ErrorClass;

/**
 * What the derived-type constructors of {@link Datatype} share: checking the old types, turning
 * the engine's {@link DatatypeException} into an MPIException of the right class (raised through
 * COMM_WORLD's handler, as Open MPI reports datatype calls), and the struct's base type.
 */
final class DerivedTypes {
    private DerivedTypes() {
    }

    /** A type made from one old type: it keeps the old type's base and element type. */
    static Datatype of(String call, Datatype old, Supplier<TypeNode> build) throws MPIException {
        MPI.check();
        checkOld(call, old);
        return make(call, call.substring(4), old.base, old.element, build, old);
    }

    static Datatype make(String call, String name, BaseType base, Datatype element,
                         Supplier<TypeNode> build, Datatype old) throws MPIException {
        TypeNode node;
        try {
            node = build.get();
        } catch (DatatypeException e) {
            throw MPI.COMM_WORLD.raise(call, errorClass(e), e.getMessage());
        } catch (ArithmeticException e) {
            throw MPI.COMM_WORLD.raise(call, ErrorClass.ERR_ARG, "type too large (" + e.getMessage() + ")");
        }
        try {
            Datatype d = new Datatype(name, base, node, element);
            d.contentTypes = old == null ? null : new Datatype[] {old};
            return d;
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    static Datatype struct(int[] blockLengths, int[] displacements, Datatype[] types)
            throws MPIException {
        String call = "MPI_Type_create_struct";
        MPI.check();
        if (types == null) {
            throw MPI.COMM_WORLD.raise(call, ErrorClass.ERR_ARG, "types are null");
        }
        TypeNode[] nodes = new TypeNode[types.length];
        Datatype element = null;
        boolean mixed = false;
        for (int i = 0; i < types.length; i++) {
            checkOld(call, types[i]);
            nodes[i] = types[i].node;
            boolean empty = blockLengths != null && i < blockLengths.length
                    && (blockLengths[i] == 0 || types[i].byteSize == 0);
            if (!empty) {
                mixed |= types[i].element == null || (element != null && element != types[i].element);
                element = types[i].element;
            }
        }
        Datatype d = make(call, "STRUCT", BaseType.BYTE, mixed ? null : element,
                () -> Types.struct(blockLengths, longs(displacements), nodes), null);
        d.contentTypes = types.clone();
        return d;
    }

    static TypeContents contents(Datatype t) throws MPIException {
        Contents c = t.node.contents();
        if (t.predefined || c.combiner() == org.verbatim.datatype.Combiner.NAMED) {
            throw MPI.COMM_WORLD.raise("MPI_Type_get_contents", ErrorClass.ERR_ARG,
                    "a predefined type has no contents");
        }
        return new TypeContents(c.integers(), c.addresses(), t.contentTypes.clone());
    }

    private static void checkOld(String call, Datatype old) throws MPIException {
        if (old == null) {
            throw MPI.COMM_WORLD.raise(call, ErrorClass.ERR_TYPE, "old type is null");
        }
        if (old.isNull()) {
            throw MPI.COMM_WORLD.raise(call, ErrorClass.ERR_TYPE, "old type is "
                    + (old.freed ? "freed" : "MPI.DATATYPE_NULL"));
        }
    }

    static long[] longs(int[] a) {
        if (a == null) {
            return null;
        }
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i];
        }
        return out;
    }

    /** The MPI error class of an engine refusal. */
    static int errorClass(DatatypeException e) {
        return switch (e.reason()) {
            case COUNT -> ErrorClass.ERR_COUNT;
            case ARGUMENT -> ErrorClass.ERR_ARG;
            case TYPE -> ErrorClass.ERR_TYPE;
            case BUFFER -> ErrorClass.ERR_BUFFER;
            case TRUNCATE -> ErrorClass.ERR_TRUNCATE;
        };
    }
}
