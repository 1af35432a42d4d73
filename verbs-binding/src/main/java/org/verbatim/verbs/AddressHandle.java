package org.verbatim.verbs;

import java.lang.foreign.MemorySegment;
import org.verbatim.verbs.raw.RuntimeHelper;
import org.verbatim.verbs.raw.ibv_ah_attr;
import org.verbatim.verbs.raw.ibv_global_route;
import org.verbatim.verbs.raw.verbs_h;

/**
 * An address handle ({@code ibv_create_ah}): the path to one remote port that unreliable-datagram
 * sends name ({@link SendRequest#datagram}). On InfiniBand the LID addresses the port; on RoCE
 * ({@code gidIndex >= 0}) the GID in a global route header does, sent from local GID
 * {@code gidIndex}.
 */
public final class AddressHandle extends NativeResource {

    AddressHandle(ProtectionDomain pd, int port, int lid, byte[] gid, int gidIndex) {
        super(pd);
        if (gidIndex >= 0 && (gid == null || gid.length != 16)) {
            throw new IllegalArgumentException("a GID index needs the remote 16-byte GID");
        }
        MemorySegment state = RuntimeHelper.allocateCallState(arena());
        MemorySegment attr = ibv_ah_attr.allocate(arena());
        ibv_ah_attr.dlid(attr, (short) lid);
        ibv_ah_attr.port_num(attr, (byte) port);
        if (gidIndex >= 0) {
            ibv_ah_attr.is_global(attr, (byte) 1);
            MemorySegment grh = ibv_ah_attr.grh(attr);
            ibv_global_route.dgid(grh).copyFrom(MemorySegment.ofArray(gid));
            ibv_global_route.sgid_index(grh, (byte) gidIndex);
            ibv_global_route.hop_limit(grh, (byte) 1);
        }
        handle(Calls.nonNull(verbs_h.ibv_create_ah(state, pd.handle(), attr), state, "ibv_create_ah"));
    }

    @Override
    void release(MemorySegment handle) {
        verbs_h.ibv_destroy_ah(releaseState(), handle);
    }
}
