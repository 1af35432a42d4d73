package mpi;

import org.verbatim.datatype.CommittedType;
import org.verbatim.datatype.Contents;
import org.verbatim.datatype.DatatypeException;
import org.verbatim.datatype.MessageShape;
import org.verbatim.datatype.TypeNode;
import org.verbatim.datatype.Types;
import org.verbatim.runtime.BaseType;
import org.verbatim.runtime.base.ErrorClass;

/**
 * An MPI datatype. Predefined instances live in {@link MPI}; derived ones come from the
 * {@code create*} constructors and must be {@link #commit() committed} before use. Each has a
 * base type that decides which Java arrays and Buffers it accepts (a derived type keeps its old
 * type's; a struct's is BYTE), and counts are in units of the datatype. Lower bound, extent and
 * size are reported in units of the base type, as in Open MPI's bindings
 * ({@code MPI.INT.getExtent() == 1}); the H variants, struct and resized take bytes.
 *
 * <p>The layout lives in the datatype engine ({@code org.verbatim.datatype}): a type tree, made
 * into a compact {@link CommittedType} by {@link #commit()}, which the communication calls pack
 * and unpack through.
 */
public final class Datatype implements Freeable, Cloneable {
    final BaseType base;
    /** Bytes of data in one element (the packed size). */
    final int byteSize;
    /** Bytes from one element to the next. */
    final int byteExtent;
    final int byteLb;
    final boolean predefined;
    private final boolean nullType;
    boolean committed;
    boolean freed;
    /**
     * The communication fast path may take this type: usable, and its {@code count} elements
     * are exactly {@code count * byteSize} bytes from the buffer's start (every predefined type,
     * and derived types that are dense). One field, so the hot path reads no more than before.
     */
    private boolean plain;
    /** The type tree (a leaf for predefined types). */
    final TypeNode node;
    /** The committed form; null until commit. */
    CommittedType form;
    /** The predefined type every element of this type is made of, or null when they differ. */
    final Datatype element;
    /** The old types this one was made from, for getContents (null for predefined). */
    Datatype[] contentTypes;
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
        this.node = Types.predefined(name, byteSize, byteSize);
        this.form = CommittedType.of(node);
        this.element = nullType ? null : this;
        this.plain = !nullType;
    }

    /** A derived type over {@code node}, uncommitted. */
    Datatype(String name, BaseType base, TypeNode node, Datatype element) throws MPIException {
        if (node.size() > Integer.MAX_VALUE || node.extent() > Integer.MAX_VALUE
                || Math.abs(node.lb()) > Integer.MAX_VALUE
                || Math.abs(node.trueLb()) > Integer.MAX_VALUE
                || node.trueExtent() > Integer.MAX_VALUE) {
            throw MPIException.of(ErrorClass.ERR_ARG, "type too large: size " + node.size()
                    + ", extent " + node.extent() + " bytes (the API reports them as int)");
        }
        this.name = name;
        this.base = base;
        this.node = node;
        this.byteSize = (int) node.size();
        this.byteExtent = (int) node.extent();
        this.byteLb = (int) node.lb();
        this.predefined = false;
        this.nullType = false;
        this.element = element;
    }

    /** True if the type can be used for communication on the fast path. */
    boolean usable() {
        return plain;
    }

    /** True when {@code count} elements are not the first {@code count * byteSize} bytes. */
    boolean isLayout() {
        return !predefined && !plain;
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

    /** Bytes of {@code count} elements (packed). */
    long bytes(int count) {
        return (long) count * byteSize;
    }

    /** The shape used last (immutable, so a racy read sees all of one or the other). */
    private MessageShape lastShape;

    /** The shape of {@code count} elements of this committed type (the last one is reused). */
    MessageShape shape(int count) {
        MessageShape s = lastShape;
        if (s == null || s.count() != count || s.type() != form) {
            s = form.shape(count);
            lastShape = s;
        }
        return s;
    }

    private int units(long bytes) {
        return (int) (bytes / base.size());
    }

    /**
     * The lower bound (MPI_Type_get_extent), in units of the base type's size, as Open MPI's
     * bindings report it.
     *
     * @return the lower bound divided by the base type's size
     * @throws MPIException if MPI is not initialized or already finalized
     */
    public int getLb() throws MPIException {
        MPI.check();
        return units(byteLb);
    }

    /**
     * The extent (MPI_Type_get_extent): the distance from one element of this type to the next,
     * in units of the base type's size.
     *
     * @return the extent divided by the base type's size
     * @throws MPIException if MPI is not initialized or already finalized
     */
    public int getExtent() throws MPIException {
        MPI.check();
        return units(byteExtent);
    }

    /**
     * The true lower bound (MPI_Type_get_true_extent): where the first byte of data lies,
     * ignoring markers set by {@link #createResized}, in units of the base type's size.
     *
     * @return the true lower bound divided by the base type's size
     * @throws MPIException if MPI is not initialized or already finalized
     */
    public int getTrueLb() throws MPIException {
        MPI.check();
        return units(node.trueLb());
    }

    /**
     * The true extent (MPI_Type_get_true_extent): from the first to the last byte of data, in
     * units of the base type's size.
     *
     * @return the true extent divided by the base type's size
     * @throws MPIException if MPI is not initialized or already finalized
     */
    public int getTrueExtent() throws MPIException {
        MPI.check();
        return units(node.trueExtent());
    }

    /**
     * The size (MPI_Type_size): the bytes of data in one element, gaps left out, in units of the
     * base type's size.
     *
     * @return the size divided by the base type's size
     * @throws MPIException if MPI is not initialized or already finalized
     */
    public int getSize() throws MPIException {
        MPI.check();
        return units(byteSize);
    }

    /** Makes the type usable for communication (MPI_Type_commit): builds its compact form. */
    public void commit() throws MPIException {
        MPI.check();
        if (nullType || freed) {
            throw MPI.COMM_WORLD.raise("MPI_Type_commit", ErrorClass.ERR_TYPE,
                    "cannot commit " + (freed ? "a freed datatype" : "MPI.DATATYPE_NULL"));
        }
        if (committed) {
            return;
        }
        try {
            form = CommittedType.of(node);
        } catch (DatatypeException e) {
            throw MPI.COMM_WORLD.raise("MPI_Type_commit", DerivedTypes.errorClass(e), e.getMessage());
        }
        committed = true;
        plain = form.isContiguous() && form.trueLb() == 0;
    }

    /**
     * Frees the type (MPI_Type_free): it can no longer be used for communication, and its
     * attributes are deleted. Types built from it stay usable.
     *
     * @throws MPIException if the type is predefined (MPI_ERR_TYPE), or MPI is not initialized
     */
    public void free() throws MPIException {
        MPI.check();
        if (predefined) {
            throw MPIException.of(ErrorClass.ERR_TYPE, "cannot free predefined datatype " + name);
        }
        attributes.clear();
        freed = true;
        plain = false;
    }

    /**
     * Whether this is {@code MPI.DATATYPE_NULL} or a freed type.
     *
     * @return true if the type cannot be used
     */
    public boolean isNull() {
        return nullType || freed;
    }

    @Override
    /**
     * A duplicate of this type, as {@link #dup()} makes it.
     *
     * @return the new type, committed if this one is
     */
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** A new type with the same layout, committed if this one is, and a copy of the attributes. */
    public Datatype dup() throws MPIException {
        MPI.check();
        if (nullType || freed) {
            check();
        }
        Datatype d = DerivedTypes.make("MPI_Type_dup", name, base, element,
                () -> Types.dup(node), this);
        d.attributes = attributes.copyForDup(false);
        if (committed) {
            d.commit();
        }
        return d;
    }

    // ------------------------------------------------------------------ constructors

    /** {@code count} consecutive elements of {@code oldType} (MPI_Type_contiguous). */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        return DerivedTypes.of("MPI_Type_contiguous", oldType, () -> Types.contiguous(count, oldType.node));
    }

    /** {@code count} blocks of {@code blockLength} elements, {@code stride} extents of {@code oldType} apart. */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        return DerivedTypes.of("MPI_Type_vector", oldType,
                () -> Types.vector(count, blockLength, stride, oldType.node));
    }

    /** As {@link #createVector} with the stride in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType)
            throws MPIException {
        return DerivedTypes.of("MPI_Type_create_hvector", oldType,
                () -> Types.hvector(count, blockLength, stride, oldType.node));
    }

    /** Blocks at displacements in extents of {@code oldType}. */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements,
                                         Datatype oldType) throws MPIException {
        return DerivedTypes.of("MPI_Type_indexed", oldType,
                () -> Types.indexed(blockLengths, displacements, oldType.node));
    }

    /** Blocks at displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements,
                                          Datatype oldType) throws MPIException {
        return DerivedTypes.of("MPI_Type_create_hindexed", oldType,
                () -> Types.hindexed(blockLengths, DerivedTypes.longs(displacements), oldType.node));
    }

    /** Verbatim extension (MPI_Type_create_indexed_block): equal blocks, displacements in extents. */
    public static Datatype createIndexedBlock(int blockLength, int[] displacements,
                                              Datatype oldType) throws MPIException {
        return DerivedTypes.of("MPI_Type_create_indexed_block", oldType,
                () -> Types.indexedBlock(blockLength, displacements, oldType.node));
    }

    /** Verbatim extension (MPI_Type_create_hindexed_block): equal blocks, displacements in bytes. */
    public static Datatype createHIndexedBlock(int blockLength, int[] displacements,
                                               Datatype oldType) throws MPIException {
        return DerivedTypes.of("MPI_Type_create_hindexed_block", oldType,
                () -> Types.hindexedBlock(blockLength, DerivedTypes.longs(displacements), oldType.node));
    }

    /** Fields of any types at byte displacements; base type BYTE (use byte[] or ByteBuffer). */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types)
            throws MPIException {
        return DerivedTypes.struct(blockLengths, displacements, types);
    }

    /** {@code oldType} with lower bound and extent set, in bytes (MPI_Type_create_resized). */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        return DerivedTypes.of("MPI_Type_create_resized", oldType,
                () -> Types.resized(oldType.node, lb, extent));
    }

    /**
     * Verbatim extension (MPI_Type_create_subarray): the {@code subsizes} block at {@code starts}
     * of an array of {@code sizes}; order {@code MPI.ORDER_C} or {@code MPI.ORDER_FORTRAN}.
     */
    public static Datatype createSubarray(int[] sizes, int[] subsizes, int[] starts, int order,
                                          Datatype oldType) throws MPIException {
        return DerivedTypes.of("MPI_Type_create_subarray", oldType,
                () -> Types.subarray(sizes, subsizes, starts, order, oldType.node));
    }

    /**
     * Verbatim extension (MPI_Type_create_darray): process {@code rank}'s part of a distributed
     * array of {@code gsizes} on a {@code psizes} grid of {@code size} processes.
     */
    public static Datatype createDarray(int size, int rank, int[] gsizes, int[] distribs,
                                        int[] dargs, int[] psizes, int order, Datatype oldType)
            throws MPIException {
        return DerivedTypes.of("MPI_Type_create_darray", oldType,
                () -> Types.darray(size, rank, gsizes, distribs, dargs, psizes, order, oldType.node));
    }

    /**
     * Verbatim extension (MPI_Type_get_envelope): {number of integers, number of addresses,
     * number of datatypes, combiner}; the combiner is one of the {@code MPI.COMBINER_*} values.
     */
    public int[] getEnvelope() throws MPIException {
        MPI.check();
        Contents c = node.contents();
        return new int[] {c.integers().length, c.addresses().length, c.types().size(),
                c.combiner().code()};
    }

    /**
     * Verbatim extension (MPI_Type_get_contents): the arguments this type was made with.
     * Refused (MPI_ERR_ARG) for predefined types, as MPI does.
     */
    public TypeContents getContents() throws MPIException {
        MPI.check();
        return DerivedTypes.contents(this);
    }

    /**
     * Sets the type's name (MPI_Type_set_name).
     *
     * @param name the new name
     * @throws MPIException if MPI is not initialized or already finalized
     */
    public void setName(String name) throws MPIException {
        MPI.check();
        this.name = name;
    }

    /**
     * The type's name (MPI_Type_get_name): a predefined type's MPI name, or what
     * {@link #setName} set.
     *
     * @return the name
     * @throws MPIException if MPI is not initialized or already finalized
     */
    public String getName() throws MPIException {
        MPI.check();
        return name;
    }

    // ------------------------------------------------------------------ attributes

    /**
     * Creates an attribute key for datatypes (MPI_Type_create_keyval).
     *
     * @return the new key
     * @throws MPIException if MPI is not initialized or already finalized
     */
    public static int createKeyval() throws MPIException {
        MPI.check();
        return Attributes.createKeyval(Attributes.Kind.DATATYPE);
    }

    /**
     * Frees a datatype attribute key (MPI_Type_free_keyval).
     *
     * @param keyval a key from {@link #createKeyval}
     * @throws MPIException for an unknown key (MPI_ERR_KEYVAL)
     */
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
            attributes.check(Attributes.Kind.DATATYPE, keyval);
            attributes.set(keyval, value);
            return null;
        });
    }

    /** A deserialized copy of the value, or null if unset. */
    public Object getAttr(int keyval) throws MPIException {
        MPI.check();
        return attributeCall("MPI_Type_get_attr", () -> {
            attributes.check(Attributes.Kind.DATATYPE, keyval);
            return attributes.get(keyval);
        });
    }

    /**
     * Deletes this type's value for {@code keyval} (MPI_Type_delete_attr).
     *
     * @param keyval a key from {@link #createKeyval}
     * @throws MPIException for an unknown key, or a key with no value here (MPI_ERR_KEYVAL)
     */
    public void deleteAttr(int keyval) throws MPIException {
        MPI.check();
        attributeCall("MPI_Type_delete_attr", () -> {
            attributes.check(Attributes.Kind.DATATYPE, keyval);
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

    /**
     * The type's name.
     *
     * @return the name, as {@link #getName()} gives it
     */
    @Override
    public String toString() {
        return name;
    }
}
