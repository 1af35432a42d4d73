package org.verbatim.transport.iwarp;

import static org.verbatim.verbs.raw.rdma_cma_h_constants.*;

import org.verbatim.verbs.CmEvent;

/** What an RDMA CM failure event means, in words, for the errors that name it. */
final class CmFailures {
    private CmFailures() {
    }

    /** The failure event {@code e} in words, with its status. */
    static String describe(CmEvent e) {
        String what = switch (e.type()) {
            case RDMA_CM_EVENT_ADDR_ERROR -> "address resolution failed (ADDR_ERROR)";
            case RDMA_CM_EVENT_ROUTE_ERROR -> "route resolution failed (ROUTE_ERROR)";
            case RDMA_CM_EVENT_CONNECT_ERROR -> "connection error (CONNECT_ERROR)";
            case RDMA_CM_EVENT_UNREACHABLE -> "peer unreachable (UNREACHABLE)";
            case RDMA_CM_EVENT_REJECTED -> "connection refused (REJECTED): nothing listens there, or it refused";
            case RDMA_CM_EVENT_DEVICE_REMOVAL -> "the device was removed (DEVICE_REMOVAL)";
            default -> "unexpected connection event " + e.type();
        };
        return what + ", status " + e.status();
    }
}
