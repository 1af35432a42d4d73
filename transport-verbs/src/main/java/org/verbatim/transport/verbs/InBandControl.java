package org.verbatim.transport.verbs;

/**
 * The eager channels' control word carried in band, for devices without immediate data
 * (iWARP). Every send on the send/receive channel then starts with one 32-bit word:
 *
 * <pre>
 *   0        4                                   length
 *   +--------+-----------------------------------+
 *   | word   | message (data) or body (control)  |
 *   +--------+-----------------------------------+
 *   word == 0: a data message, handed to the runtime without the word
 *   word != 0: a control message, type &lt;&lt; 28 | value (types 1-15, see EagerControl)
 * </pre>
 *
 * The RDMA fast path's ring writes carry no word (their footer says what they are). The largest
 * eager message shrinks by {@link #WORD}.
 */
final class InBandControl {
    /** Bytes of the control word ahead of every send. */
    static final int WORD = 4;
    /** The word of a data message. */
    static final int DATA = 0;

    private InBandControl() {
    }
}
