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
 * @param readsOut RDMA reads and atomics this side keeps outstanding ({@code max_rd_atomic} at
 *                 RTS): at most the device's {@code max_qp_init_rd_atom} and the peer's readsIn
 * @param readsIn RDMA reads and atomics this side serves at once ({@code max_dest_rd_atomic} at
 *                RTR): at most the device's {@code max_qp_rd_atom}
 */
public record ConnectionParameters(int port, int pathMtu, int remoteQpNum, int remoteLid, byte[] remoteGid, int gidIndex,
                                   int receivePsn, int sendPsn, int readsOut, int readsIn) {

    /** Checks the GID against the GID index and the read depths once. */
    public ConnectionParameters {
        if (gidIndex >= 0 && (remoteGid == null || remoteGid.length != 16)) {
            throw new IllegalArgumentException("a GID index needs the remote 16-byte GID");
        }
        if (readsOut < 0 || readsOut > 255 || readsIn < 0 || readsIn > 255) {
            throw new IllegalArgumentException("read depths are 0-255: " + readsOut + ", " + readsIn);
        }
        remoteGid = remoteGid == null ? null : remoteGid.clone();
    }

    /** Parameters with one RDMA read or atomic outstanding each way. */
    public ConnectionParameters(int port, int pathMtu, int remoteQpNum, int remoteLid, byte[] remoteGid, int gidIndex,
                                int receivePsn, int sendPsn) {
        this(port, pathMtu, remoteQpNum, remoteLid, remoteGid, gidIndex, receivePsn, sendPsn, 1, 1);
    }
}
