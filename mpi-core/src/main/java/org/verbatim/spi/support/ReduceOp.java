package org.verbatim.spi.support;

/**
 * Elementwise operations of an emulated accumulate ({@link EmulatedEndpoint#accumulate}): the
 * target combines each incoming element {@code x} with its element {@code t} into
 * {@code t = t op x} (REPLACE: {@code t = x}). Bitwise operations apply to the integer kinds only,
 * as in MPI.
 */
public enum ReduceOp {
    SUM,
    PROD,
    MIN,
    MAX,
    BAND,
    BOR,
    BXOR,
    REPLACE;

    private static final ReduceOp[] BY_CODE = values();

    /** True when the operation is defined on {@code kind}. */
    public boolean supports(ElementKind kind) {
        return !kind.floating() || !(this == BAND || this == BOR || this == BXOR);
    }

    byte code() {
        return (byte) ordinal();
    }

    /** The operation of a wire code, or null when the code is unknown. */
    static ReduceOp ofCode(byte code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
