package org.verbatim.verbs;

import org.verbatim.verbs.raw.verbs_h_constants;

/** The queue pair transports the binding supports. */
public enum QueuePairType {
    /** Reliable connected: send/receive, RDMA read/write, atomics. */
    RC(verbs_h_constants.IBV_QPT_RC),
    /** Unreliable datagram: send/receive to any UD QP through an address handle. */
    UD(verbs_h_constants.IBV_QPT_UD);

    final int value;

    QueuePairType(int value) {
        this.value = value;
    }
}
