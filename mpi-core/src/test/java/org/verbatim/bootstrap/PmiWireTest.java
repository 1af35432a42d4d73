package org.verbatim.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PmiWireTest {
    @Test
    void parsesHydraReplies() {
        Map<String, String> m = PmiWire.parse("cmd=maxes kvsname_max=256 keylen_max=64 vallen_max=1024\n");
        assertEquals("maxes", m.get("cmd"));
        assertEquals("1024", m.get("vallen_max"));
        Map<String, String> r = PmiWire.parse("cmd=response_to_init pmi_version=1 pmi_subversion=1  rc=0 ");
        assertEquals("0", r.get("rc"));
        assertEquals("1", r.get("pmi_subversion"));
    }

    @Test
    void formatsCommands() {
        assertEquals("cmd=put kvsname=k key=a value=b", PmiWire.format("put", "kvsname", "k", "key", "a", "value", "b"));
        assertEquals("cmd=barrier_in", PmiWire.format("barrier_in"));
        assertThrows(IllegalArgumentException.class, () -> PmiWire.format("put", "key"));
    }

    @Test
    void encodingRoundTripsForbiddenCharacters() {
        for (String s : new String[] {"", "plain-value_1.2:3/4,5+6@x", "a b=c\nd\te%f", "ü€😀", "%", "%%41", "="}) {
            String e = PmiWire.encode(s);
            assertTrue(e.matches("[A-Za-z0-9\\-_.:/,+@%]+"), () -> "unsafe encoding " + e + " of " + s);
            assertEquals(s, PmiWire.decode(e));
        }
        assertEquals("plain-value", PmiWire.encode("plain-value"));
        assertEquals("a%20b%3dc", PmiWire.encode("a b=c"));
    }

    @Test
    void decodingRejectsMalformedEscapes() {
        assertThrows(IllegalArgumentException.class, () -> PmiWire.decode("ab%4"));
        assertThrows(IllegalArgumentException.class, () -> PmiWire.decode("ab%zz"));
    }
}
