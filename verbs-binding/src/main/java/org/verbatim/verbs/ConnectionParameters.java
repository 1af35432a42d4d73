package org.verbatim.verbs;

/**
 * What RTR and RTS need about the remote side and the path (RC). On RoCE set {@code gidIndex}
 * (the local GID table entry to send from) and {@code remoteGid}; on InfiniBand use
 * {@code remoteLid} and {@code gidIndex = -1}.
 *
 * @param port local port number (from 1)
 * @param pathMtu {@code enum ibv_mtu} (IBV_MTU_1024 = 3, ...), at most the port's active MTU
 * @param remoteQpNum the peer QP number
 * @param remoteLid the peer LID (InfiniBand)
 * @param remoteGid the peer GID, 16 bytes (RoCE / global routing), or null
 * @param gidIndex local GID index for the GRH, or -1 for no GRH
 * @param receivePsn first PSN expected from the peer
 * @param sendPsn first PSN this side sends
 */
public record ConnectionParameters(int port, int pathMtu, int remoteQpNum, int remoteLid, byte[] remoteGid, int gidIndex,
                                   int receivePsn, int sendPsn) {

    /** Checks the GID against the GID index once. */
    public ConnectionParameters {
        if (gidIndex >= 0 && (remoteGid == null || remoteGid.length != 16)) {
            throw new IllegalArgumentException("a GID index needs the remote 16-byte GID");
        }
        remoteGid = remoteGid == null ? null : remoteGid.clone();
    }
}
