package org.verbatim.datatype;

import java.util.Arrays;

/** One dimension of a distributed array (MPI_Type_create_darray): the indices a process holds. */
final class Distribution {
    private Distribution() {
    }

    /**
     * The (start, length) pairs, flattened, of the indices of a dimension of {@code global}
     * elements that grid coordinate {@code coord} of {@code procs} holds.
     */
    static long[] segments(int dim, int global, int distrib, int darg, int procs, int coord) {
        if (darg != Types.DISTRIBUTE_DFLT_DARG && darg <= 0) {
            throw DatatypeException.argument("darray: dimension " + dim + " has distribution"
                    + " argument " + darg);
        }
        switch (distrib) {
            case Types.DISTRIBUTE_NONE -> {
                if (procs != 1) {
                    throw DatatypeException.argument("darray: dimension " + dim
                            + " is not distributed but spread over " + procs + " processes");
                }
                return new long[] {0, global};
            }
            case Types.DISTRIBUTE_BLOCK -> {
                long b = darg == Types.DISTRIBUTE_DFLT_DARG ? (global + procs - 1) / procs : darg;
                if (b * procs < global) {
                    throw DatatypeException.argument("darray: dimension " + dim + ": blocks of "
                            + b + " on " + procs + " processes cover less than " + global);
                }
                long start = coord * b;
                long length = Math.max(0, Math.min(b, global - start));
                return new long[] {Math.min(start, global), length};
            }
            case Types.DISTRIBUTE_CYCLIC -> {
                long b = darg == Types.DISTRIBUTE_DFLT_DARG ? 1 : darg;
                long[] out = new long[8];
                int n = 0;
                for (long s = coord * b; s < global; s += procs * b) {
                    if (n == out.length) {
                        out = Arrays.copyOf(out, n * 2);
                    }
                    out[n++] = s;
                    out[n++] = Math.min(b, global - s);
                }
                return Arrays.copyOf(out, n);
            }
            default -> throw DatatypeException.argument("darray: dimension " + dim
                    + " has unknown distribution " + distrib);
        }
    }
}
