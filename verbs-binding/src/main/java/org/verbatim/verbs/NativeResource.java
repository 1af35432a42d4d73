package org.verbatim.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A native object owned by Java: its handle, an Arena for the memory that belongs with it, and
 * the resources created from it. {@link #close()} first closes the children, newest first (a QP
 * before the CQ and PD it uses), then releases the native object, then the arena. Any use after
 * close is an {@link IllegalStateException}, never a dangling pointer.
 */
public abstract class NativeResource implements AutoCloseable {

    private final Arena arena = Arena.ofShared();
    private final List<NativeResource> children = new ArrayList<>();
    private final NativeResource parent;
    private MemorySegment handle;
    private volatile boolean closed;

    NativeResource(NativeResource parent) {
        this.parent = parent;
        if (parent != null) {
            parent.adopt(this);
        }
    }

    /** Sets the native handle once created; a NULL handle closes this resource's arena. */
    final void handle(MemorySegment handle) {
        this.handle = handle;
    }

    /** The native pointer; throws if closed. */
    public final MemorySegment handle() {
        checkOpen();
        return handle;
    }

    /** The arena of memory owned with this resource. */
    final Arena arena() {
        checkOpen();
        return arena;
    }

    /** A call-state segment for the destroy call in {@link #release}, from the still-open arena. */
    final MemorySegment releaseState() {
        return org.verbatim.verbs.raw.RuntimeHelper.allocateCallState(arena);
    }

    /** Throws IllegalStateException if this resource is closed. */
    final void checkOpen() {
        if (closed) {
            throw new IllegalStateException(getClass().getSimpleName() + " is closed");
        }
    }

    /** Whether {@link #close()} has run. */
    public final boolean isClosed() {
        return closed;
    }

    private synchronized void adopt(NativeResource child) {
        checkOpen();
        children.add(child);
    }

    private synchronized void forget(NativeResource child) {
        children.remove(child);
    }

    /** Destroys the native object; called once, after the children are closed. */
    abstract void release(MemorySegment handle);

    @Override
    public final void close() {
        List<NativeResource> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            toClose = new ArrayList<>(children);
        }
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
        synchronized (this) {
            closed = true;
        }
        try {
            if (handle != null && !handle.equals(MemorySegment.NULL)) {
                release(handle);
            }
        } finally {
            arena.close();
            if (parent != null) {
                parent.forget(this);
            }
        }
    }
}
