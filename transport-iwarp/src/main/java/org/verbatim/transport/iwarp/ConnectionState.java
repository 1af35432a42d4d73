package org.verbatim.transport.iwarp;

/** Where the connection to one peer stands ({@link PeerStates}). */
enum ConnectionState {
    NONE, CALLING, RESOLVING_ADDRESS, RESOLVING_ROUTE, CONNECTING, ACCEPTED, CONNECTED,
    /** The queue pair went to error (either side): draining before the reconnection. */
    RECOVERING,
    /** Server side, endpoint at INIT (all at once, or drained and reset): waiting for the client's request. */
    AWAITING_REQUEST,
    /** The last attempt failed: the next starts after a backoff (a client connects, a server asks again). */
    RETRY_WAIT,
    FAILED
}
