package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A C-like struct laid out in a byte buffer. A subclass appends fields with the {@code add*}
 * methods (usually in field initialisers), keeping the returned byte offsets, and returns its own
 * inner {@link Data} from {@link #newData()}; {@link #getData} then gives typed access to element
 * {@code index} of a ByteBuffer or byte[]. Fields are appended at the current extent without
 * alignment padding; {@link #setOffset} skips ahead. The layout is fixed ("committed") on first
 * use of {@link #getType}, {@link #getExtent} or {@link #getData}.
 */
public abstract class Struct {
    private final List<Field> fields = new ArrayList<>();
    private int extent;
    /** Largest alignment of a field's basic type: MPI rounds a struct's extent up to it. */
    private int alignment = 1;
    private Datatype datatype;
    private int[] offsets, lengths;
    private Datatype[] types;

    private record Field(Object type, int offset, int length) {
    }

    /** Bytes from one struct to the next; commits the layout on first use. */
    public final int getExtent() throws MPIException {
        commit();
        return extent;
    }

    /** The struct's Datatype (base type BYTE: use byte[] or ByteBuffer, counts in structs). */
    public final Datatype getType() throws MPIException {
        commit();
        return datatype;
    }

    /** Returns a new instance of the subclass's inner Data class. */
    protected abstract Data newData();

    /**
     * An accessor for the first struct in {@code buffer} (commits the struct type first).
     *
     * @param <T> the subclass's Data class
     * @param buffer the buffer that holds the structs
     * @return a Data object reading and writing the fields of element 0
     * @throws MPIException if the struct type cannot be committed
     */
    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        commit();
        return newData(buffer, 0);
    }

    /**
     * An accessor for struct {@code index} in {@code buffer} (commits the struct type first).
     *
     * @param <T> the subclass's Data class
     * @param buffer the buffer that holds the structs
     * @param index which struct, counted in extents of this type
     * @return a Data object reading and writing the fields of that element
     * @throws MPIException if the struct type cannot be committed
     */
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        commit();
        return newData(buffer, index * extent);
    }

    /**
     * An accessor for the first struct in {@code array}, through a native-order ByteBuffer.
     *
     * @param <T> the subclass's Data class
     * @param array the bytes that hold the structs
     * @return a Data object reading and writing the fields of element 0
     * @throws MPIException if the struct type cannot be committed
     */
    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()));
    }

    /**
     * An accessor for struct {@code index} in {@code array}, through a native-order ByteBuffer.
     *
     * @param <T> the subclass's Data class
     * @param array the bytes that hold the structs
     * @param index which struct, counted in extents of this type
     * @return a Data object reading and writing the fields of that element
     * @throws MPIException if the struct type cannot be committed
     */
    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    @SuppressWarnings("unchecked")
    private <T extends Data> T newData(ByteBuffer buffer, int offset) {
        Data d = newData();
        d.buffer = buffer;
        d.offset = offset;
        return (T) d;
    }

    /**
     * Fixes the layout: a struct datatype of the fields (so the gaps between them are not
     * transferred), resized to the extent rounded up to the largest field alignment, as C lays
     * out a struct ({long; int} has extent 16), and committed.
     */
    private void commit() throws MPIException {
        if (datatype != null) {
            return;
        }
        int n = fields.size();
        types = new Datatype[n];
        offsets = new int[n];
        lengths = new int[n];
        for (int i = 0; i < n; i++) {
            Field f = fields.get(i);
            types[i] = f.type instanceof Struct s ? s.datatype : (Datatype) f.type;
            offsets[i] = f.offset;
            lengths[i] = f.length;
        }
        extent = (extent + alignment - 1) / alignment * alignment;
        Datatype fieldsType = Datatype.createStruct(lengths, offsets, types);
        Datatype t = Datatype.createResized(fieldsType, 0, extent);
        t.commit();
        t.setName("MPI_STRUCT " + getClass().getSimpleName());
        datatype = t;
    }

    private int addField(Object type, int typeExtent, int length) {
        if (datatype != null) {
            throw new AssertionError("The struct data type was committed.");
        }
        int align = type instanceof Struct s ? s.alignment : ((Datatype) type).base.size();
        alignment = Math.max(alignment, align);
        int offset = extent;
        extent += typeExtent * length;
        fields.add(new Field(type, offset, length));
        return offset;
    }

    /** Moves the next field to byte {@code offset}, which must not be below the current extent. */
    public final Struct setOffset(int offset) {
        if (datatype != null) {
            throw new AssertionError("The struct data type was committed.");
        }
        if (offset < extent) {
            throw new IllegalArgumentException(
                    "The offset must be greater or equal to the accumulated extent.");
        }
        extent = offset;
        return this;
    }

    /**
     * Adds one byte field (1 bytes, MPI.BYTE) at the next offset.
     *
     * @return the field's byte offset in the struct
     */
    public final int addByte() {
        return addByte(1);
    }

    /**
     * Adds an array field of {@code length} byte values (1 bytes each, MPI.BYTE) at the next
     * offset.
     *
     * @param length number of values in the field
     * @return the field's byte offset in the struct
     */
    public final int addByte(int length) {
        return addField(MPI.BYTE, 1, length);
    }

    /**
     * Adds one char field (2 bytes, MPI.CHAR) at the next offset.
     *
     * @return the field's byte offset in the struct
     */
    public final int addChar() {
        return addChar(1);
    }

    /**
     * Adds an array field of {@code length} char values (2 bytes each, MPI.CHAR) at the next
     * offset.
     *
     * @param length number of values in the field
     * @return the field's byte offset in the struct
     */
    public final int addChar(int length) {
        return addField(MPI.CHAR, 2, length);
    }

    /**
     * Adds one short field (2 bytes, MPI.SHORT) at the next offset.
     *
     * @return the field's byte offset in the struct
     */
    public final int addShort() {
        return addShort(1);
    }

    /**
     * Adds an array field of {@code length} short values (2 bytes each, MPI.SHORT) at the next
     * offset.
     *
     * @param length number of values in the field
     * @return the field's byte offset in the struct
     */
    public final int addShort(int length) {
        return addField(MPI.SHORT, 2, length);
    }

    /**
     * Adds one int field (4 bytes, MPI.INT) at the next offset.
     *
     * @return the field's byte offset in the struct
     */
    public final int addInt() {
        return addInt(1);
    }

    /**
     * Adds an array field of {@code length} int values (4 bytes each, MPI.INT) at the next
     * offset.
     *
     * @param length number of values in the field
     * @return the field's byte offset in the struct
     */
    public final int addInt(int length) {
        return addField(MPI.INT, 4, length);
    }

    /**
     * Adds one long field (8 bytes, MPI.LONG) at the next offset.
     *
     * @return the field's byte offset in the struct
     */
    public final int addLong() {
        return addLong(1);
    }

    /**
     * Adds an array field of {@code length} long values (8 bytes each, MPI.LONG) at the next
     * offset.
     *
     * @param length number of values in the field
     * @return the field's byte offset in the struct
     */
    public final int addLong(int length) {
        return addField(MPI.LONG, 8, length);
    }

    /**
     * Adds one float field (4 bytes, MPI.FLOAT) at the next offset.
     *
     * @return the field's byte offset in the struct
     */
    public final int addFloat() {
        return addFloat(1);
    }

    /**
     * Adds an array field of {@code length} float values (4 bytes each, MPI.FLOAT) at the next
     * offset.
     *
     * @param length number of values in the field
     * @return the field's byte offset in the struct
     */
    public final int addFloat(int length) {
        return addField(MPI.FLOAT, 4, length);
    }

    /**
     * Adds one double field (8 bytes, MPI.DOUBLE) at the next offset.
     *
     * @return the field's byte offset in the struct
     */
    public final int addDouble() {
        return addDouble(1);
    }

    /**
     * Adds an array field of {@code length} double values (8 bytes each, MPI.DOUBLE) at the next
     * offset.
     *
     * @param length number of values in the field
     * @return the field's byte offset in the struct
     */
    public final int addDouble(int length) {
        return addField(MPI.DOUBLE, 8, length);
    }

    /**
     * Adds a nested struct field (commits {@code struct}).
     *
     * @param struct the nested struct type
     * @return the field's byte offset in this struct
     * @throws MPIException if {@code struct} cannot be committed
     */
    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    /**
     * Adds an array field of {@code length} nested structs (commits {@code struct}).
     *
     * @param struct the nested struct type
     * @param length number of nested structs in the field
     * @return the field's byte offset in this struct
     * @throws MPIException if {@code struct} cannot be committed
     */
    public final int addStruct(Struct struct, int length) throws MPIException {
        struct.commit();
        return addField(struct, struct.extent, length);
    }

    /**
     * Adds a field of one element of any datatype, as long as its extent.
     *
     * @param type the field's type
     * @return the field's byte offset in the struct
     * @throws MPIException if the type cannot be used
     */
    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    /**
     * Adds a field of {@code length} elements of any datatype, each as long as its extent.
     *
     * @param type the field's type
     * @param length number of elements in the field
     * @return the field's byte offset in the struct
     * @throws MPIException if the type cannot be used
     */
    public final int addData(Datatype type, int length) throws MPIException {
        return addField(type, type.byteExtent, length);
    }

    private boolean validType(int fieldOffset, int index, Datatype type) {
        int i = Arrays.binarySearch(offsets, fieldOffset);
        return i >= 0 && index >= 0 && index < lengths[i] && type == types[i];
    }

    private static final String TYPE_MISMATCH = "Type mismatch";

    /**
     * Access to one struct in a buffer. Subclass it as an inner class of the Struct subclass and
     * write getters and setters with the protected accessors, passing the field offsets returned
     * by {@code add*}. Accessors use the buffer's byte order (native for
     * {@link Struct#getData(byte[])} and {@link MPI#newByteBuffer}); field and type mismatches
     * are caught only by assertions.
     */
    public abstract class Data {
        private ByteBuffer buffer;
        private int offset;

        /** The buffer sliced to start at this struct. */
        public final ByteBuffer getBuffer() {
            return offset == 0 ? buffer : MPI.slice(buffer, offset);
        }

        protected final byte getByte(int field) {
            assert validType(field, 0, MPI.BYTE) : TYPE_MISMATCH;
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            assert validType(field, index, MPI.BYTE) : TYPE_MISMATCH;
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            assert validType(field, 0, MPI.BYTE) : TYPE_MISMATCH;
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            assert validType(field, index, MPI.BYTE) : TYPE_MISMATCH;
            buffer.put(offset + field + index, v);
        }

        protected final char getChar(int field) {
            assert validType(field, 0, MPI.CHAR) : TYPE_MISMATCH;
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            assert validType(field, index, MPI.CHAR) : TYPE_MISMATCH;
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char v) {
            assert validType(field, 0, MPI.CHAR) : TYPE_MISMATCH;
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            assert validType(field, index, MPI.CHAR) : TYPE_MISMATCH;
            buffer.putChar(offset + field + index * 2, v);
        }

        protected final short getShort(int field) {
            assert validType(field, 0, MPI.SHORT) : TYPE_MISMATCH;
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            assert validType(field, index, MPI.SHORT) : TYPE_MISMATCH;
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short v) {
            assert validType(field, 0, MPI.SHORT) : TYPE_MISMATCH;
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            assert validType(field, index, MPI.SHORT) : TYPE_MISMATCH;
            buffer.putShort(offset + field + index * 2, v);
        }

        protected final int getInt(int field) {
            assert validType(field, 0, MPI.INT) : TYPE_MISMATCH;
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            assert validType(field, index, MPI.INT) : TYPE_MISMATCH;
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int v) {
            assert validType(field, 0, MPI.INT) : TYPE_MISMATCH;
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            assert validType(field, index, MPI.INT) : TYPE_MISMATCH;
            buffer.putInt(offset + field + index * 4, v);
        }

        protected final long getLong(int field) {
            assert validType(field, 0, MPI.LONG) : TYPE_MISMATCH;
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            assert validType(field, index, MPI.LONG) : TYPE_MISMATCH;
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long v) {
            assert validType(field, 0, MPI.LONG) : TYPE_MISMATCH;
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            assert validType(field, index, MPI.LONG) : TYPE_MISMATCH;
            buffer.putLong(offset + field + index * 8, v);
        }

        protected final float getFloat(int field) {
            assert validType(field, 0, MPI.FLOAT) : TYPE_MISMATCH;
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            assert validType(field, index, MPI.FLOAT) : TYPE_MISMATCH;
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float v) {
            assert validType(field, 0, MPI.FLOAT) : TYPE_MISMATCH;
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            assert validType(field, index, MPI.FLOAT) : TYPE_MISMATCH;
            buffer.putFloat(offset + field + index * 4, v);
        }

        protected final double getDouble(int field) {
            assert validType(field, 0, MPI.DOUBLE) : TYPE_MISMATCH;
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            assert validType(field, index, MPI.DOUBLE) : TYPE_MISMATCH;
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double v) {
            assert validType(field, 0, MPI.DOUBLE) : TYPE_MISMATCH;
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            assert validType(field, index, MPI.DOUBLE) : TYPE_MISMATCH;
            buffer.putDouble(offset + field + index * 8, v);
        }

        /** Accessor of a nested struct field added with {@link Struct#addStruct}. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            Struct s = struct;
            assert validType(field, 0, s.datatype) : TYPE_MISMATCH;
            return s.newData(buffer, offset + field);
        }

        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field,
                                                                             int index) {
            Struct s = struct;
            assert validType(field, index, s.datatype) : TYPE_MISMATCH;
            return s.newData(buffer, offset + field + index * s.extent);
        }

        /** The buffer sliced to start at a field added with {@link Struct#addData}. */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            assert validType(field, 0, type) : TYPE_MISMATCH;
            int position = offset + field;
            return position == 0 ? buffer : MPI.slice(buffer, position);
        }

        protected final ByteBuffer getBuffer(Datatype type, int field, int index)
                throws MPIException {
            assert validType(field, index, type) : TYPE_MISMATCH;
            int position = offset + field + index * type.byteExtent;
            return position == 0 ? buffer : MPI.slice(buffer, position);
        }
    }
}
