package org.verbatim.transport.ib;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.verbatim.transport.verbs.EagerChannel;
import org.junit.jupiter.api.Test;

/** Pure logic that runs on any host, RDMA or not. */
class IbSettingsTest {
    @Test
    void channelsParseAndValidate() {
        assertEquals(EagerChannel.SRQ, IbConfiguration.from(Map.of()).channel());
        assertEquals(EagerChannel.ARDMA_SR, EagerChannel.parse("ardma-sr"));
        assertEquals(EagerChannel.ARDMA_SRQ, EagerChannel.parse("ARDMA-SRQ"));
        assertTrue(EagerChannel.ARDMA_SRQ.fastPath() && EagerChannel.ARDMA_SRQ.sharedReceiveQueue());
        assertFalse(EagerChannel.ARDMA_SR.sharedReceiveQueue());
        var e = assertThrows(IllegalArgumentException.class,
                () -> IbConfiguration.from(Map.of("verbatim.ib.eager-channel", "udp")));
        assertTrue(e.getMessage().contains("udp"));
        e = assertThrows(IllegalArgumentException.class,
                () -> IbConfiguration.from(Map.of("verbatim.ib.srq-low-watermark", "500")));
        assertTrue(e.getMessage().contains("verbatim.ib.srq-low-watermark"));
    }

    @Test
    void providerSaysWhyItIsUnavailableWithoutCrashing() {
        IbTransportProvider p = new IbTransportProvider();
        assertEquals("ib", p.name());
        assertEquals(20, p.priority());
        p.unavailabilityCause().ifPresent(cause -> assertFalse(cause.isBlank()));
    }
}
