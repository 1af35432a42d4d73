package org.verbatim.mpitests;

import java.util.List;

/** The -x settings of a job forced onto the iwarp transport on the guest's Soft-iWARP device. */
final class IwarpJobs {
    /**
     * The eager limit over iwarp: 8 KiB eager buffers less the 4-byte in-band control word and the
     * runtime's header (ib's limit is 8160 B).
     */
    static final String EAGER_LIMIT = "8156";

    private IwarpJobs() {
    }

    /** iwarp forced on siw0, connections set up {@code connect} ("on-demand" or "all"). */
    static List<String> env(String connect) {
        return List.of("VERBATIM_CORE_TRANSPORTS=iwarp", "VERBATIM_IWARP_DEVICE=siw0",
                "VERBATIM_IWARP_CONNECT=" + connect, "VERBATIM_CORE_PROTO_INFO=true");
    }
}
