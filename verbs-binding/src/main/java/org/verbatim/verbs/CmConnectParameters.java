package org.verbatim.verbs;

/**
 * What {@code rdma_connect} and {@code rdma_accept} negotiate ({@code struct rdma_conn_param}),
 * and what a CONNECT_REQUEST or ESTABLISHED event reports of the peer's side.
 *
 * @param initiatorDepth     RDMA reads and atomics this side keeps outstanding as initiator
 *                           (at most the device's {@code max_qp_init_rd_atom}, and the peer's
 *                           responder resources)
 * @param responderResources RDMA reads and atomics this side serves at once as responder
 *                           (at most the device's {@code max_qp_rd_atom})
 * @param privateData        bytes carried with the request or reply (at most 56 on connect and
 *                           196 on accept over InfiniBand/RoCE; iWARP's MPA allows more), not null
 * @param retryCount         transport retries (0-7)
 * @param rnrRetryCount      receiver-not-ready retries (0-7; 7 means infinite)
 */
public record CmConnectParameters(int initiatorDepth, int responderResources, byte[] privateData, int retryCount,
                                  int rnrRetryCount) {

    /** One read each way, no private data, 7 retries: what {@link CmId#connect()} uses. */
    public static final CmConnectParameters DEFAULT = new CmConnectParameters(1, 1, new byte[0], 7, 7);

    /** Checks the ranges once and copies the private data. */
    public CmConnectParameters {
        if (initiatorDepth < 0 || initiatorDepth > 255 || responderResources < 0 || responderResources > 255) {
            throw new IllegalArgumentException("initiator depth and responder resources are 0-255");
        }
        if (privateData == null || privateData.length > 255) {
            throw new IllegalArgumentException("private data of at most 255 bytes (not null) is carried");
        }
        if (retryCount < 0 || retryCount > 7 || rnrRetryCount < 0 || rnrRetryCount > 7) {
            throw new IllegalArgumentException("retry counts are 0-7");
        }
        privateData = privateData.clone();
    }

    /** These parameters with {@code data} as private data. */
    public CmConnectParameters withPrivateData(byte[] data) {
        return new CmConnectParameters(initiatorDepth, responderResources, data, retryCount, rnrRetryCount);
    }

    /** These parameters with {@code depth} reads or atomics each way. */
    public CmConnectParameters withReads(int depth) {
        return new CmConnectParameters(depth, depth, privateData, retryCount, rnrRetryCount);
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }
}
