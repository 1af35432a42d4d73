package org.verbatim.verbs.generator;

/**
 * A named integer constant: an enumerator (from castxml) or an object-like macro (from gcc).
 *
 * @param header the header path that declares it
 * @param wide whether it needs a Java {@code long}
 * @param origin a short note for the Javadoc ("enum ibv_qp_state", "#define")
 */
record Constant(String header, String name, long value, boolean wide, String origin) {

    /** The Java literal for the value. */
    String literal() {
        if (wide) {
            return (value < 0 || value > 0xffff) ? String.format("0x%xL", value) : value + "L";
        }
        if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE) {
            return Long.toString(value);
        }
        return String.format("0x%x", value & 0xffffffffL);
    }
}
