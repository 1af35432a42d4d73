package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/**
 * A reduction bound to its operation and datatype: {@code inout[i] = in[i] op inout[i]} for
 * {@code count} elements. Collective algorithms call it with the lower ranks' data as {@code in}
 * and the higher ranks' as {@code inout}, so non-commutative operations see rank order.
 */
@FunctionalInterface
public interface Reducer {
    void reduce(MemorySegment in, MemorySegment inout, int count);
}
