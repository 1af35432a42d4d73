package org.verbatim.verbs;

import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.raw.ibv_port_attr;
import org.verbatim.verbs.raw.verbs_h_constants;

/**
 * What {@code ibv_query_port} says about a port that matters for connecting queue pairs.
 *
 * @param state {@code enum ibv_port_state}
 * @param activeMtu {@code enum ibv_mtu} in use
 * @param lid the port's LID (0 on RoCE)
 * @param gidTableLength entries in the GID table
 * @param linkLayer {@code IBV_LINK_LAYER_*}
 */
public record PortAttributes(int state, int activeMtu, int lid, int gidTableLength, int linkLayer) {

    static PortAttributes of(MemorySegment attr) {
        return new PortAttributes(ibv_port_attr.state(attr), ibv_port_attr.active_mtu(attr),
                Short.toUnsignedInt(ibv_port_attr.lid(attr)), ibv_port_attr.gid_tbl_len(attr),
                Byte.toUnsignedInt(ibv_port_attr.link_layer(attr)));
    }

    /** RoCE (Ethernet link layer): addressing needs a GID index, not a LID. */
    public boolean isEthernet() {
        return linkLayer == verbs_h_constants.IBV_LINK_LAYER_ETHERNET;
    }

    /** Whether the port is up. */
    public boolean isActive() {
        return state == verbs_h_constants.IBV_PORT_ACTIVE;
    }
}
