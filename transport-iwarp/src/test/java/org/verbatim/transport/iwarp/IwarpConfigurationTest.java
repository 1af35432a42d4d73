package org.verbatim.transport.iwarp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.config.Setting;

/** The iwarp settings (any host): defaults, the fast-path switch, the shared data-path settings. */
class IwarpConfigurationTest {
    @Test
    void defaultsAreOnDemandWithoutTheFastPath() {
        IwarpConfiguration c = IwarpConfiguration.from(Map.of());
        assertFalse(c.allAtOnce());
        assertFalse(c.semantics().inOrderPlacement(), "iWARP does not promise in-order placement");
        assertFalse(c.semantics().immediateData(), "iWARP has no immediate data");
        assertTrue(c.semantics().readSinkRemoteWrite());
        assertEquals("sr", c.verbs.channel().configName(), "no RNR retry on iWARP: credits, not a shared queue");
        assertTrue(IwarpConfiguration.from(Map.of(IwarpConfiguration.CONNECT.name(), "all")).allAtOnce());
    }

    /** The RDMA fast path needs the switch: without it an ardma channel is a configuration error. */
    @Test
    void fastPathNeedsTheSwitch() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> IwarpConfiguration.from(
                Map.of(IwarpConfiguration.VERBS.eagerChannel.name(), "ardma-srq")));
        assertTrue(e.getMessage().contains(IwarpConfiguration.FAST_PATH.name()), e.getMessage());
        IwarpConfiguration c = IwarpConfiguration.from(Map.of(IwarpConfiguration.VERBS.eagerChannel.name(),
                "ardma-srq", IwarpConfiguration.FAST_PATH.name(), "true"));
        assertTrue(c.semantics().inOrderPlacement());
    }

    @Test
    void everySettingIsUnderTheIwarpArea() {
        for (Setting s : IwarpConfiguration.SETTINGS) {
            assertTrue(s.name().startsWith("verbatim.iwarp."), s.name());
        }
        assertEquals(6 + IwarpConfiguration.VERBS.list().size(), IwarpConfiguration.SETTINGS.size());
        assertThrows(IllegalArgumentException.class,
                () -> IwarpConfiguration.from(Map.of(IwarpConfiguration.CONNECT.name(), "sometimes")));
    }
}
