package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.bootstrap.PmiWire;

/** Decoding {@code cmd=spawn}: commands, arguments with spaces, counts, info keys, bad input. */
class SpawnRequestTest {
    @Test
    void decodesEveryField() {
        String line = PmiWire.format("spawn", "count", "2", "port", PmiWire.encode("verbatim-port:x:1:0123456789abcdef"),
                "cmd0", "java", "argc0", "2", "arg0_0", "Main", "arg0_1", PmiWire.encode("two words"),
                "maxprocs0", "3", "wdir0", PmiWire.encode("/tmp"),
                "cmd1", PmiWire.encode("/bin/prog"), "argc1", "0", "maxprocs1", "1", "host1", "localhost");
        SpawnRequest r = SpawnRequest.parse(PmiWire.parse(line));
        assertEquals(4, r.total());
        assertEquals("verbatim-port:x:1:0123456789abcdef", r.port());
        SpawnRequest.App a = r.apps().get(0);
        assertEquals(List.of("Main", "two words"), a.args());
        assertEquals("/tmp", a.wdir());
        assertNull(a.host());
        assertEquals("/bin/prog", r.apps().get(1).command());
        assertEquals("localhost", r.apps().get(1).host());
    }

    @Test
    void refusesIncompleteRequests() {
        assertThrows(IllegalArgumentException.class, () -> SpawnRequest.parse(PmiWire.parse(
                "cmd=spawn count=1 cmd0=java argc0=1 maxprocs0=1 port=p")), "argument missing");
        assertThrows(IllegalArgumentException.class, () -> SpawnRequest.parse(PmiWire.parse(
                "cmd=spawn count=1 cmd0=java argc0=0 maxprocs0=0 port=p")), "no processes");
        assertThrows(IllegalArgumentException.class, () -> SpawnRequest.parse(PmiWire.parse(
                "cmd=spawn count=1 cmd0=java argc0=0 maxprocs0=1")), "no port");
    }
}
