package org.verbatim.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.verbatim.runtime.base.MpiError;

class RmaSettingsTest {
    @Test
    void defaultsAndWindowInfoOverrides() {
        RmaSettings s = RmaSettings.from(Map.of());
        assertEquals(FenceDesign.AUTO, s.fence());
        assertTrue(s.schedule());
        assertEquals(1024, s.aggregateLimit());
        RmaSettings w = s.with(Map.of("verbatim.rma.fence", "imm-naive",
                "verbatim.rma.schedule", "false", "unrelated", "x"));
        assertEquals(FenceDesign.IMM_NAIVE, w.fence());
        assertFalse(w.schedule());
        assertTrue(w.aggregate());
    }

    @Test
    void everyDesignParsesAndUnknownIsRefused() {
        for (FenceDesign d : FenceDesign.values()) {
            assertEquals(d, FenceDesign.parse(d.key()));
        }
        assertThrows(MpiError.class, () -> RmaSettings.from(Map.of("verbatim.rma.fence", "x")));
    }

    @Test
    void lockModeParsesAndUnknownIsRefused() {
        assertEquals("auto", RmaSettings.from(Map.of()).lock());
        assertEquals("record", RmaSettings.from(Map.of("verbatim.rma.lock", "Record")).lock());
        assertEquals("atomic", RmaSettings.from(Map.of()).with(Map.of("verbatim.rma.lock",
                "atomic")).lock());
        MpiError e = assertThrows(MpiError.class,
                () -> RmaSettings.from(Map.of("verbatim.rma.lock", "cas")));
        assertTrue(e.getMessage().contains("auto, atomic or record"), e.getMessage());
    }
}
