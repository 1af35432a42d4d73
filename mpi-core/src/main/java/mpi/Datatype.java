package mpi;

import org.verbatim.runtime.BaseType;
import org.verbatim.runtime.ErrorClass;

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

    @Override
    public String toString() {
        return name;
    }
}
