package org.verbatim.transport.verbs;

/**
 * What a family of verbs devices promises beyond the verbs calls themselves, and so what the data
 * path may rely on. InfiniBand and RoCE give all of it; iWARP (RDMAP over DDP over MPA over TCP)
 * gives no immediate data and no placement order, and reads into a sink that must be registered
 * for remote write (the read response is a tagged write into the sink's STag).
 *
 * @param inOrderPlacement    an RDMA write's bytes land in address order, so the RDMA fast path
 *                            may poll a footer written last; advertised as IN_ORDER_PLACEMENT
 * @param immediateData       sends and RDMA writes carry 32 bits of immediate data (send with
 *                            immediate, write with immediate). Without it the control messages
 *                            of the eager channels travel in band (a 4-byte word ahead of every
 *                            send, {@link InBandControl}) and WRITE_WITH_IMMEDIATE is not offered
 * @param readSinkRemoteWrite the local buffer of an RDMA read needs remote-write access as well
 *                            as local write
 * @param writesAcknowledged  an RDMA write or send completes at the initiator once the target
 *                            has acknowledged it (InfiniBand). On iWARP it completes once it has
 *                            left: a write the target's registration refuses is not reported to
 *                            it (the target ends the connection instead; advertised as
 *                            REMOTE_ACCESS_ERRORS_UNREPORTED), and it may complete ahead of an
 *                            RDMA read posted before it, whose response is still on its way
 */
public record DeviceSemantics(boolean inOrderPlacement, boolean immediateData, boolean readSinkRemoteWrite,
                              boolean writesAcknowledged) {

    /** InfiniBand and RoCE. */
    public static final DeviceSemantics INFINIBAND = new DeviceSemantics(true, true, false, true);

    /** iWARP as the specifications promise it (no in-order placement). */
    public static final DeviceSemantics IWARP = new DeviceSemantics(false, false, true, false);

    /**
     * These semantics with in-order placement taken as given: the iWARP switch that allows the
     * RDMA fast path on adapters that do place in order in practice.
     */
    public DeviceSemantics assumingInOrderPlacement(boolean inOrder) {
        return new DeviceSemantics(inOrder, immediateData, readSinkRemoteWrite, writesAcknowledged);
    }
}
