package org.verbatim.verbs;

import org.verbatim.verbs.raw.rdma_cma_h_constants;

/**
 * An acknowledged RDMA CM event.
 *
 * @param type {@code enum rdma_cm_event_type}
 * @param status the event's status (0 or a negative errno)
 * @param id address of the {@code rdma_cm_id} it is for (a new id for CONNECT_REQUEST)
 * @param listenId address of the listening id for CONNECT_REQUEST, else 0
 * @param peer what the peer asked for or granted (CONNECT_REQUEST, ESTABLISHED: initiator
 *             depth, responder resources, private data; retry counts are not reported; REJECTED:
 *             the private data of the peer's reject, empty when the connection was refused or reset
 *             without one), else null
 */
public record CmEvent(int type, int status, long id, long listenId, CmConnectParameters peer) {

    /** An event without connection parameters. */
    public CmEvent(int type, int status, long id, long listenId) {
        this(type, status, id, listenId, null);
    }

    /** Whether the connection is established. */
    public boolean isEstablished() {
        return type == rdma_cma_h_constants.RDMA_CM_EVENT_ESTABLISHED;
    }

    /** Whether a peer asks to connect (accept it with {@link CmId#accept}). */
    public boolean isConnectRequest() {
        return type == rdma_cma_h_constants.RDMA_CM_EVENT_CONNECT_REQUEST;
    }
}
