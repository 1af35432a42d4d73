package org.verbatim.spi;

import java.lang.foreign.MemorySegment;

/**
 * A claimed eager slot (after Aeron's {@code BufferClaim}): {@link Endpoint#claim} reserves room
 * for one message of a given length straight in the transport's send buffer or the peer's receive
 * ring; the caller writes header and payload into {@link #buffer()} at {@link #offset()} and then
 * either {@link #commit()}s, which sends it exactly as {@link Endpoint#send} would have, or
 * {@link #abort()}s, after which the peer sees nothing. Reused by the caller: one object per
 * sending thread, not one per message. A claim must be committed or aborted before the next
 * call on the same endpoint.
 */
public final class EagerClaim {
    /** What the transport does on commit and abort. */
    public interface Owner {
        void commit(EagerClaim claim);

        void abort(EagerClaim claim);
    }

    private Owner owner;
    private MemorySegment buffer;
    private long offset;
    private int length;
    private long token;

    /** Called by the transport when it grants a claim. */
    public void wrap(Owner owner, MemorySegment buffer, long offset, int length, long token) {
        this.owner = owner;
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        this.token = token;
    }

    /** The memory to write the message into (from {@link #offset()}, {@link #length()} bytes). */
    public MemorySegment buffer() {
        requireActive();
        return buffer;
    }

    public long offset() {
        requireActive();
        return offset;
    }

    public int length() {
        return length;
    }

    /** The transport's own bookkeeping for this claim (slot index, record offset). */
    public long token() {
        return token;
    }

    /** True between a granted claim and its commit or abort. */
    public boolean active() {
        return owner != null;
    }

    /** Sends the message written into the claimed room. */
    public void commit() {
        Owner o = requireActive();
        owner = null;
        o.commit(this);
        buffer = null;
    }

    /** Gives the room back unsent. */
    public void abort() {
        Owner o = requireActive();
        owner = null;
        o.abort(this);
        buffer = null;
    }

    private Owner requireActive() {
        Owner o = owner;
        if (o == null) {
            throw new IllegalStateException("no active claim (already committed or aborted)");
        }
        return o;
    }
}
