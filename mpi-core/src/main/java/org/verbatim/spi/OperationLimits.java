package org.verbatim.spi;

/**
 * Size limits of one kind of operation (after UCX {@code uct_iface_attr.cap.put/get/am}): what
 * the transport carries inline in the work request, by copy through its own buffers, and
 * zero-copy from registered memory, and how many entries a gather or scatter list may have.
 * A size of 0 means the transport does not carry the operation that way.
 *
 * @param maxInline   largest payload carried inside the descriptor itself (bytes)
 * @param maxCopy     largest payload copied through the transport's own buffers (bytes)
 * @param maxZeroCopy largest payload moved straight from or to registered memory (bytes)
 * @param maxIov      most entries of one gather or scatter list (1: single segments only)
 */
public record OperationLimits(long maxInline, long maxCopy, long maxZeroCopy, int maxIov) {
    /** The operation is not available at all. */
    public static final OperationLimits NONE = new OperationLimits(0, 0, 0, 0);

    public OperationLimits {
        if (maxInline < 0 || maxCopy < 0 || maxZeroCopy < 0 || maxIov < 0) {
            throw new IllegalArgumentException("negative limit in " + this);
        }
    }

    /** True when any size of the operation is carried. */
    public boolean available() {
        return maxIov > 0 && (maxInline > 0 || maxCopy > 0 || maxZeroCopy > 0);
    }

    /** The largest payload carried any way. */
    public long maxSize() {
        return Math.max(maxInline, Math.max(maxCopy, maxZeroCopy));
    }
}
