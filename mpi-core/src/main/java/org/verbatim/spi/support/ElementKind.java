package org.verbatim.spi.support;

/**
 * Element types an emulated accumulate ({@link EmulatedEndpoint#accumulate}) combines, in the
 * target's native byte order. The one-sided module maps MPI's predefined types onto these.
 */
public enum ElementKind {
    INT32(4),
    INT64(8),
    FLOAT32(4),
    FLOAT64(8);

    private static final ElementKind[] BY_CODE = values();

    private final int size;

    ElementKind(int size) {
        this.size = size;
    }

    /** Bytes of one element. */
    public int size() {
        return size;
    }

    /** True for the floating-point kinds (no bitwise operations). */
    public boolean floating() {
        return this == FLOAT32 || this == FLOAT64;
    }

    byte code() {
        return (byte) ordinal();
    }

    /** The kind of a wire code, or null when the code is unknown. */
    static ElementKind ofCode(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
