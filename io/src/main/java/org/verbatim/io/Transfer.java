package org.verbatim.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.verbatim.datatype.MessageShape;
import org.verbatim.runtime.io.IoBuffer;

/**
 * The memory side of one access as contiguous data bytes: the user's memory itself when its
 * type is contiguous, else a packed copy made with the datatype engine (packed before a write,
 * unpacked after a read, only as far as the read got).
 */
final class Transfer {
    final MemorySegment data;
    final long dataOffset;
    final long bytes;
    private final IoBuffer user;
    private final boolean packed;

    private Transfer(MemorySegment data, long dataOffset, long bytes, IoBuffer user,
                     boolean packed) {
        this.data = data;
        this.dataOffset = dataOffset;
        this.bytes = bytes;
        this.user = user;
        this.packed = packed;
    }

    static Transfer of(boolean write, IoBuffer buf) {
        MessageShape shape = buf.shape();
        long n = shape.bytes();
        if (n == 0) {
            return new Transfer(MemorySegment.NULL, 0, 0, buf, false);
        }
        if (shape.isContiguous()) {
            return new Transfer(buf.base(), shape.blockOffset(0), n, buf, false);
        }
        MemorySegment staging = buf.base().isNative() ? Arena.ofAuto().allocate(n, 8)
                : MemorySegment.ofArray(new byte[Math.toIntExact(n)]);
        if (write) {
            shape.cursor().pack(buf.base(), staging, 0, n);
        }
        return new Transfer(staging, 0, n, buf, true);
    }

    /** After a read of {@code got} bytes: unpacks them into the user's memory. */
    void finishRead(long got) {
        if (packed && got > 0) {
            user.shape().cursor().unpack(data, 0, user.base(), got);
        }
    }
}
