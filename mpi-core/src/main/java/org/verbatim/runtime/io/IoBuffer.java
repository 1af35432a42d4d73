package org.verbatim.runtime.io;

import java.lang.foreign.MemorySegment;
import org.verbatim.datatype.MessageShape;

/**
 * The memory side of a read or write: the user's buffer as a segment whose byte 0 is the memory
 * type's origin, and the shape of {@code count} elements of that type in it (already checked to
 * fit). The data are the shape's packed bytes.
 */
public record IoBuffer(MemorySegment base, MessageShape shape) {
    /** Bytes of data. */
    public long bytes() {
        return shape.bytes();
    }
}
