package org.verbatim.spi;

/**
 * Registered memory as a peer names it: the owner's address and the transport's remote key. The
 * pair travels inside protocol headers (for example in a rendezvous RTS), so both are plain longs.
 */
public interface RemoteMemory {
    /** Address of the first byte in the owner's address space. */
    long address();

    /** The transport's key that grants remote access (rkey on verbs; 0 where none is needed). */
    long remoteKey();

    /** Length of the registered range in bytes. */
    long length();
}
