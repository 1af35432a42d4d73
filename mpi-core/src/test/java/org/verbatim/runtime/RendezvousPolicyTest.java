package org.verbatim.runtime;

import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.p2p.RendezvousPolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.AtomicOp;
import org.verbatim.spi.Capabilities;
import org.verbatim.spi.OperationLimits;
import org.verbatim.spi.Capability;

/** The rendezvous choice from the setting and the capability record. */
class RendezvousPolicyTest {
    private static final long NEVER = RendezvousPolicy.NEVER;

    private static Capabilities caps(Capability... flags) {
        EnumSet<Capability> set = EnumSet.of(Capability.SEND_RECV, flags);
        return new Capabilities(set, new OperationLimits(0, 8192, 0, 2),
                new OperationLimits(0, 0, 1 << 20, 1), new OperationLimits(0, 0, 1 << 20, 1),
                EnumSet.noneOf(AtomicOp.class), 1, 0);
    }

    private static RendezvousPolicy policy(String choice) {
        return MpiProcess.rendezvousPolicy(Map.of("verbatim.core.rendezvous", choice,
                "verbatim.core.rput-threshold", "64k"));
    }

    @Test
    void autoUsesRputForLargeMessagesWhenBothOperationsAreNative() {
        assertEquals(64 << 10, policy("auto").putFrom(
                caps(Capability.RDMA_READ, Capability.RDMA_WRITE, Capability.WRITE_WITH_IMMEDIATE)));
        assertEquals(256 << 10, MpiProcess.rendezvousPolicy(Map.of()).putFrom(
                caps(Capability.RDMA_READ, Capability.RDMA_WRITE)), "default threshold 256 KiB");
    }

    @Test
    void autoKeepsRgetWhenTheCpuMakesTheCopies() {
        assertEquals(NEVER, policy("auto").putFrom(caps(Capability.RDMA_READ,
                Capability.RDMA_WRITE, Capability.RDMA_BY_CPU)));
        assertEquals(0, policy("rput").putFrom(caps(Capability.RDMA_READ,
                Capability.RDMA_WRITE, Capability.RDMA_BY_CPU)), "forced RPUT still honoured");
    }

    @Test
    void autoWritesAtEverySizeWhenReadsAreDeferred() {
        assertEquals(0, policy("auto").putFrom(caps(Capability.RDMA_READ,
                Capability.RDMA_WRITE, Capability.RDMA_READ_DEFERRED)));
        assertEquals(NEVER, policy("rget").putFrom(caps(Capability.RDMA_READ,
                Capability.RDMA_WRITE, Capability.RDMA_READ_DEFERRED)), "forced RGET still honoured");
    }

    @Test
    void autoTakesWhatExists() {
        assertEquals(0, policy("auto").putFrom(caps(Capability.RDMA_WRITE)));
        assertEquals(NEVER, policy("auto").putFrom(caps(Capability.RDMA_READ)));
        assertEquals(NEVER, policy("auto").putFrom(caps()));
        assertEquals(NEVER, policy("auto").putFrom(caps(Capability.RDMA_READ,
                Capability.RDMA_WRITE, Capability.RDMA_READ_EMULATED,
                Capability.RDMA_WRITE_EMULATED)), "both emulated: RGET");
        assertEquals(0, policy("auto").putFrom(caps(Capability.RDMA_READ, Capability.RDMA_WRITE,
                Capability.RDMA_READ_EMULATED)), "only the write native: RPUT");
        assertEquals(NEVER, policy("auto").putFrom(caps(Capability.RDMA_READ, Capability.RDMA_WRITE,
                Capability.RDMA_WRITE_EMULATED)), "only the read native: RGET");
    }

    @Test
    void forcedChoiceHoldsWhereTheOperationExists() {
        Capabilities both = caps(Capability.RDMA_READ, Capability.RDMA_WRITE);
        assertEquals(0, policy("rput").putFrom(both));
        assertEquals(NEVER, policy("rget").putFrom(both));
        assertEquals(0, policy("RGET").putFrom(caps(Capability.RDMA_WRITE)), "no read: RPUT");
        assertEquals(NEVER, policy("rput").putFrom(caps(Capability.RDMA_READ)), "no write: RGET");
        assertEquals(0, policy("rput").putFrom(caps(Capability.RDMA_READ, Capability.RDMA_WRITE,
                Capability.RDMA_WRITE_EMULATED)), "forced RPUT also over an emulated write");
    }

    @Test
    void badSettingsAreRefusedWithTheirName() {
        MpiError e = assertThrows(MpiError.class, () -> policy("rdma"));
        assertTrue(e.getMessage().contains("verbatim.core.rendezvous"), e.getMessage());
        MpiError t = assertThrows(MpiError.class, () -> MpiProcess.rendezvousPolicy(
                Map.of("verbatim.core.rput-threshold", "lots")));
        assertTrue(t.getMessage().contains("verbatim.core.rput-threshold"), t.getMessage());
    }
}
