package mpi;

import org.verbatim.runtime.BaseType;
import org.verbatim.runtime.base.ErrorClass;

/**
 * An MPI datatype. Predefined instances live in {@link MPI}; each has a base type that decides
 * which Java arrays and Buffers it accepts, and counts are in units of the datatype.
 * Lower bound, extent and size are reported in units of the base type, as in Open MPI's bindings
 * ({@code MPI.INT.getExtent() == 1}).
 */
public final class Datatype implements Freeable, Cloneable {
    final BaseType base;
    /** Bytes of data in one element. */
    final int byteSize;
    /** Bytes from one element to the next. */
    final int byteExtent;
    final int byteLb;
    final boolean predefined;
    private final boolean nullType;
    boolean committed;
    boolean freed;
    /** Cached attributes: copied on dup, deleted on free. */
    Attributes attributes = new Attributes();
    private String name;

    Datatype(String name, BaseType base, int byteSize, boolean nullType) {
        this.name = name;
        this.base = base;
        this.byteSize = byteSize;
        this.byteExtent = byteSize;
        this.byteLb = 0;
        this.predefined = true;
        this.nullType = nullType;
        this.committed = true;
    }

    private Datatype(Datatype other) {
        this.name = other.name;
        this.base = other.base;
        this.byteSize = other.byteSize;
        this.byteExtent = other.byteExtent;
        this.byteLb = other.byteLb;
        this.predefined = false;
        this.nullType = false;
        this.committed = other.committed;
        this.attributes = other.attributes.copyForDup(false);
    }

    /** True if the type can be used for communication (the fast-path form of check()). */
    boolean usable() {
        return !nullType && !freed && committed;
    }

    /** Throws unless the type can be used for communication. */
    void check() throws MPIException {
        if (nullType || freed) {
            throw MPIException.of(ErrorClass.ERR_TYPE, "invalid datatype: "
                    + (freed ? "it has been freed" : "MPI.DATATYPE_NULL"));
        }
        if (!committed) {
            throw MPIException.of(ErrorClass.ERR_TYPE, "datatype " + name + " is not committed");
        }
    }

    /** Bytes of {@code count} elements. */
    long bytes(int count) {
        return (long) count * byteSize;
    }

    public int getLb() throws MPIException {
        MPI.check();
        return byteLb / base.size();
    }

    public int getExtent() throws MPIException {
        MPI.check();
        return byteExtent / base.size();
    }

    public int getTrueLb() throws MPIException {
        MPI.check();
        return byteLb / base.size();
    }

    public int getTrueExtent() throws MPIException {
        MPI.check();
        return byteSize / base.size();
    }

    public int getSize() throws MPIException {
        MPI.check();
        return byteSize / base.size();
    }

    public void commit() throws MPIException {
        MPI.check();
        committed = true;
    }

    public void free() throws MPIException {
        MPI.check();
        if (predefined) {
            throw MPIException.of(ErrorClass.ERR_TYPE, "cannot free predefined datatype " + name);
        }
        attributes.clear();
        freed = true;
    }

    public boolean isNull() {
        return nullType || freed;
    }

    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    public Datatype dup() throws MPIException {
        MPI.check();
        check();
        return new Datatype(this);
    }

    public void setName(String name) throws MPIException {
        MPI.check();
        this.name = name;
    }

    public String getName() throws MPIException {
        MPI.check();
        return name;
    }

    // ------------------------------------------------------------------ attributes

    public static int createKeyval() throws MPIException {
        MPI.check();
        return Attributes.createKeyval(Attributes.Kind.DATATYPE);
    }

    public static void freeKeyval(int keyval) throws MPIException {
        MPI.check();
        attributeCall("MPI_Type_free_keyval", () -> {
            Attributes.freeKeyval(Attributes.Kind.DATATYPE, keyval);
            return null;
        });
    }

    /** Stores a Java-serialized copy of {@code value} (which must be Serializable). */
    public void setAttr(int keyval, Object value) throws MPIException {
        MPI.check();
        attributeCall("MPI_Type_set_attr", () -> {
            Attributes.checkKeyval(Attributes.Kind.DATATYPE, keyval);
            attributes.set(keyval, value);
            return null;
        });
    }

    /** A deserialized copy of the value, or null if unset. */
    public Object getAttr(int keyval) throws MPIException {
        MPI.check();
        return attributeCall("MPI_Type_get_attr", () -> {
            Attributes.checkKeyval(Attributes.Kind.DATATYPE, keyval);
            return attributes.get(keyval);
        });
    }

    public void deleteAttr(int keyval) throws MPIException {
        MPI.check();
        attributeCall("MPI_Type_delete_attr", () -> {
            Attributes.checkKeyval(Attributes.Kind.DATATYPE, keyval);
            if (!attributes.delete(keyval)) {
                throw MPIException.of(ErrorClass.ERR_KEYVAL, "keyval " + keyval
                        + " has no value on datatype " + name);
            }
            return null;
        });
    }

    private interface AttributeCall {
        Object run() throws MPIException;
    }

    /** Datatype calls report errors through COMM_WORLD's handler, as Open MPI does. */
    private static Object attributeCall(String call, AttributeCall body) throws MPIException {
        try {
            return body.run();
        } catch (MPIException e) {
            throw MPI.COMM_WORLD.raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
