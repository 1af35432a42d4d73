package org.verbatim.verbs.generator;

import org.w3c.dom.Element;

/** A C type as the generator sees it: resolved through typedefs, qualifiers and elaboration. */
sealed interface CType {

    /** Size in bytes. */
    long size();

    /** Alignment in bytes. */
    long align();

    /**
     * A scalar: integer, floating point or enumeration.
     *
     * @param layout the {@code ValueLayout} constant name (JAVA_INT, ...)
     * @param carrier the Java carrier type name (int, ...)
     */
    record Scalar(String layout, String carrier, long size, long align) implements CType { }

    /** Any pointer, including function pointers. */
    record Pointer(long size, long align) implements CType { }

    /** A byte blob with no Java carrier (long double, __int128). */
    record Opaque(long size, long align) implements CType { }

    /** The {@code void} type (function results only). */
    record Void() implements CType {
        @Override public long size() { return 0; }
        @Override public long align() { return 1; }
    }

    /**
     * An array.
     *
     * @param count element count; 0 for a flexible array member
     * @param flexible whether the array is declared {@code []}
     */
    record Array(CType element, long count, boolean flexible) implements CType {
        @Override public long size() { return element.size() * count; }
        @Override public long align() { return element.align(); }
    }

    /** A struct or union; {@code node} is its castxml element. */
    record Record(Element node, boolean union, long size, long align) implements CType {
        String id() { return node.getAttribute("id"); }
    }
}
