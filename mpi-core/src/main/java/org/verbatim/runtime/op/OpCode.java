package org.verbatim.runtime.op;

import static org.verbatim.runtime.op.ElementKind.Family.COMPLEX;
import static org.verbatim.runtime.op.ElementKind.Family.FLOATING;
import static org.verbatim.runtime.op.ElementKind.Family.INTEGER;
import static org.verbatim.runtime.op.ElementKind.Family.PAIR;

import org.verbatim.runtime.op.ElementKind.Family;

/**
 * The predefined reduction operations, with the element kinds each one is defined on. The table
 * follows MPI 3.1 section 5.9.2 as Open MPI applies it to the Java types: MAX/MIN on integers and
 * floating point; SUM/PROD also on complex; the logical and bitwise operations on integers (which
 * include BYTE and BOOLEAN, both {@code uint8_t}); MAXLOC/MINLOC on the pair types; REPLACE and
 * NO_OP on everything.
 */
public enum OpCode {
    MAX("MPI_MAX"), MIN("MPI_MIN"), SUM("MPI_SUM"), PROD("MPI_PROD"),
    LAND("MPI_LAND"), BAND("MPI_BAND"), LOR("MPI_LOR"), BOR("MPI_BOR"),
    LXOR("MPI_LXOR"), BXOR("MPI_BXOR"), MINLOC("MPI_MINLOC"), MAXLOC("MPI_MAXLOC"),
    REPLACE("MPI_REPLACE"), NO_OP("MPI_NO_OP");

    private final String mpiName;

    OpCode(String mpiName) {
        this.mpiName = mpiName;
    }

    /** The C name, for messages. */
    public String mpiName() {
        return mpiName;
    }

    /** True if this operation is defined on elements of {@code kind}. */
    public boolean appliesTo(ElementKind kind) {
        Family f = kind.family();
        return switch (this) {
            case MAX, MIN -> f == INTEGER || f == FLOATING;
            case SUM, PROD -> f == INTEGER || f == FLOATING || f == COMPLEX;
            case LAND, LOR, LXOR, BAND, BOR, BXOR -> f == INTEGER;
            case MAXLOC, MINLOC -> f == PAIR;
            case REPLACE, NO_OP -> true;
        };
    }
}
