package org.verbatim.transport.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class FastPathDescriptorTest {
    @Test
    void fastPathSlotLayoutPutsTheTagLast() {
        assertEquals(8256, FastPathDescriptor.slotSize(8192));
        assertEquals(0, FastPathDescriptor.slotSize(8192) % 64);
        assertEquals(1, FastPathDescriptor.tag(0, 32));
        assertEquals(1, FastPathDescriptor.tag(31, 32));
        assertEquals(2, FastPathDescriptor.tag(32, 32));
        assertEquals(0, FastPathDescriptor.slot(64, 32));
    }

}
