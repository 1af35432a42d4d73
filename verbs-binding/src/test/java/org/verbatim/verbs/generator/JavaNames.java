package org.verbatim.verbs.generator;

import java.util.Set;

/** Turns C names into legal Java identifiers and header paths into class names. */
final class JavaNames {

    private static final Set<String> RESERVED = Set.of(
            "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
            "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
            "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
            "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
            "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
            "volatile", "while", "true", "false", "null", "_", "record", "yield", "var", "sealed", "permits",
            // members every generated record class has
            "LAYOUT", "sizeof", "allocate", "allocateArray", "reinterpret");

    private JavaNames() { }

    /** A C identifier as a Java identifier: reserved words get a trailing underscore. */
    static String identifier(String c) {
        return RESERVED.contains(c) ? c + "_" : c;
    }

    /** "/usr/include/infiniband/verbs.h" becomes "verbs_h". */
    static String headerClass(String headerPath) {
        String base = headerPath.substring(headerPath.lastIndexOf('/') + 1);
        return base.replace('.', '_').replace('-', '_');
    }

    /** The header's path below the include directory: "infiniband/verbs.h". */
    static String includeName(String headerPath) {
        int i = headerPath.lastIndexOf('/', headerPath.lastIndexOf('/') - 1);
        return headerPath.substring(i + 1);
    }
}
