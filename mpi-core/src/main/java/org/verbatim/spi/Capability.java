package org.verbatim.spi;

/**
 * What a transport can do, in verbs terms. A transport advertises a set of these in its
 * {@link Capabilities}; protocols and window designs select themselves from them.
 *
 * <p>An operation that a transport performs by emulation (active messages instead of hardware
 * RDMA) is advertised with its {@code *_EMULATED} flag in addition to the plain one, so that
 * designs which depend on true one-sided semantics (no target involvement) can choose honestly.
 */
public enum Capability {
    /** Two-sided eager send into receive buffers owned by the receiver. */
    SEND_RECV,
    /** Receive buffers are shared among all senders (memory does not grow with the job). */
    SHARED_RECEIVE_QUEUE,
    /** One-sided write into registered remote memory. */
    RDMA_WRITE,
    /** One-sided read from registered remote memory. */
    RDMA_READ,
    /** RDMA write that also delivers a 32-bit immediate to the target's completion handler. */
    WRITE_WITH_IMMEDIATE,
    /** Data of one write lands in address order (the last byte last): footer polling is safe. */
    IN_ORDER_PLACEMENT,
    /**
     * Remote atomics on 64-bit words ({@link Capabilities#atomics()} says which), through
     * {@link Endpoint#fetchAndAdd} and {@link Endpoint#compareAndSwap}.
     */
    ATOMICS,
    /** Several work requests can be posted in one call ({@link Endpoint#postList}). */
    LIST_POST,
    /** RDMA write from a gather list of local ranges ({@link Endpoint#writeGather}). */
    WRITE_GATHER,
    /** RDMA read into a scatter list of local ranges ({@link Endpoint#readScatter}). */
    READ_SCATTER,
    /** {@link Endpoint#flush}: completes once every earlier write to the peer is placed. */
    FLUSH,
    /** {@link Endpoint#claim}: pack an eager message in place, then commit or abort it. */
    EAGER_CLAIM,
    /** RDMA_WRITE is emulated: the target must make progress for it to complete. */
    RDMA_WRITE_EMULATED,
    /** RDMA_READ is emulated: the target must make progress for it to complete. */
    RDMA_READ_EMULATED,
    /** ATOMICS are emulated: the target must make progress for them to complete. */
    ATOMICS_EMULATED,
    /**
     * Native RDMA read and write are copies made by the initiating CPU (cross-memory attach),
     * not offloaded to an adapter: a read costs what a write costs, so the rendezvous prefers
     * RGET, which lets the receiver copy as soon as the RTS arrives (RPUT waits a round trip
     * for the CTS and needs the sender to make progress).
     */
    RDMA_BY_CPU,
    /**
     * Native RDMA reads are served later than writes: the responder's side of a read is deferred
     * kernel work (Soft-RoCE schedules a read request's responder as a tasklet, where it runs a
     * write's inside the initiator's post), and reads streamed worse than writes there (a window
     * of 64 KiB RGETs reached 0.48x of ib_write_bw). The rendezvous prefers RPUT at every size.
     */
    RDMA_READ_DEFERRED,
    /**
     * A one-sided operation that the target's registration refuses (a missing right, an unknown
     * key, a range past the end) is not reported to that operation as
     * {@link CompletionStatus#REMOTE_ACCESS_ERROR}: on iWARP an RDMA write completes at the
     * initiator once it has left (RDMAP writes are not acknowledged), the target refuses it
     * afterwards and ends the connection with a TERMINATE message; operations in flight with it
     * may complete {@link CompletionStatus#CANCELLED}, and the transport connects again or
     * reports the peer failed. The target's memory is still left as it was. The device may also not check every right
     * (Soft-iWARP serves RDMA reads of memory registered without remote read). Only erroneous
     * programs use a refused key, so protocols lose nothing; tests of the refusal itself skip.
     */
    REMOTE_ACCESS_ERRORS_UNREPORTED
}
