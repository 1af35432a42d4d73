package org.verbatim.mpitests;

import java.util.List;

/** The -x settings of a job forced onto the ib transport on the guest's Soft-RoCE device. */
final class IbJobs {
    private IbJobs() {
    }

    static List<String> env(String channel) {
        return List.of("VERBATIM_CORE_TRANSPORTS=ib", "VERBATIM_IB_DEVICE=rxe0",
                "VERBATIM_IB_EAGER_CHANNEL=" + channel, "VERBATIM_IB_FASTPATH_THRESHOLD=4",
                "VERBATIM_CORE_PROTO_INFO=true");
    }
}
