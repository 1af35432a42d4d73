package org.verbatim.transport.shm;

/**
 * The operations of {@link EmulatedOps}: a bounded table of initiator operations, whose index is
 * the op id that travels in records (a full table is RETRY), and a free list of target-side ones
 * (answers owed to peers), which grows as needed and is reused. Nothing is allocated per
 * operation once warm.
 */
final class OpPool {
    private final RdmaOp[] ops;
    private final int[] freeIds;
    private int freeCount;
    private RdmaOp spares;

    OpPool(int capacity) {
        ops = new RdmaOp[capacity];
        freeIds = new int[capacity];
        for (int i = capacity - 1; i >= 0; i--) {
            ops[i] = new RdmaOp(i);
            freeIds[freeCount++] = i;
        }
    }

    int capacity() {
        return ops.length;
    }

    /** A free initiator operation counted against {@code endpoint}, or null when all are in use. */
    RdmaOp take(ShmEndpoint endpoint) {
        if (freeCount == 0) {
            return null;
        }
        RdmaOp op = ops[freeIds[--freeCount]];
        op.endpoint = endpoint;
        endpoint.outstanding++;
        return op;
    }

    /** A target-side operation. */
    RdmaOp spare() {
        RdmaOp op = spares;
        if (op == null) {
            return new RdmaOp(-1);
        }
        spares = op.next;
        op.next = null;
        return op;
    }

    /** The initiator operation with id {@code id} (in use or not). */
    RdmaOp initiator(int id) {
        return ops[id];
    }

    void release(RdmaOp op) {
        if (op.id >= 0) {
            op.endpoint.outstanding--;
            op.clear();
            freeIds[freeCount++] = op.id;
        } else {
            op.clear();
            op.next = spares;
            spares = op;
        }
    }
}
