package org.verbatim.verbs;

import org.verbatim.verbs.raw.verbs_h_constants;

/**
 * An acknowledged asynchronous event of a context.
 *
 * @param type the {@code enum ibv_event_type} value
 * @param element the address of the affected CQ, QP or SRQ, or the port number for port events
 */
public record AsyncEvent(int type, long element) {

    /** An SRQ's receive count fell below its armed limit ({@link SharedReceiveQueue#armLimit}). */
    public boolean isSrqLimitReached() {
        return type == verbs_h_constants.IBV_EVENT_SRQ_LIMIT_REACHED;
    }

    /** Whether this is a port event (element is then the port number). */
    public boolean isPortEvent() {
        return type == verbs_h_constants.IBV_EVENT_PORT_ACTIVE || type == verbs_h_constants.IBV_EVENT_PORT_ERR
                || type == verbs_h_constants.IBV_EVENT_LID_CHANGE || type == verbs_h_constants.IBV_EVENT_PKEY_CHANGE
                || type == verbs_h_constants.IBV_EVENT_GID_CHANGE || type == verbs_h_constants.IBV_EVENT_SM_CHANGE
                || type == verbs_h_constants.IBV_EVENT_CLIENT_REREGISTER;
    }
}
