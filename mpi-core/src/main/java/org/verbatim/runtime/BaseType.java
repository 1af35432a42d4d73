package org.verbatim.runtime;

/**
 * The Java element types a buffer can hold, with their size in bytes. Every datatype has one:
 * it decides which Java array or Buffer class is accepted and how counts map to bytes.
 */
public enum BaseType {
    BYTE(1, byte[].class), CHAR(2, char[].class), SHORT(2, short[].class),
    BOOLEAN(1, boolean[].class), INT(4, int[].class), LONG(8, long[].class),
    FLOAT(4, float[].class), DOUBLE(8, double[].class);

    private final int size;
    private final Class<?> arrayClass;

    BaseType(int size, Class<?> arrayClass) {
        this.size = size;
        this.arrayClass = arrayClass;
    }

    /** Bytes per element. */
    public int size() {
        return size;
    }

    /** The Java array class that holds this base type. */
    public Class<?> arrayClass() {
        return arrayClass;
    }
}
