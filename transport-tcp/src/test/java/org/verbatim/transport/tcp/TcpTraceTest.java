package org.verbatim.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TcpTraceTest {
    @Test
    void printsTheDifferencesSinceThePreviousLine() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        TcpTrace trace = new TcpTrace(3, 1000, out);
        trace.writes = 5;
        trace.writesEmpty = 1;
        trace.writeBytes = 4 * 4096;
        trace.reads = 10;
        trace.readsEmpty = 8;
        trace.readBytes = 2 * 1000;
        trace.retries = 2;
        trace.flush();
        trace.writes = 6;
        trace.writeBytes = 4 * 4096 + 100;
        trace.flush();
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(2, lines.length);
        assertTrue(lines[0].startsWith("tcp-trace rank 3 "), lines[0]);
        assertTrue(lines[0].contains("wr 5 (empty 1, partial 0) 16KB 4096B/call"), lines[0]);
        assertTrue(lines[0].contains("retry=2"), lines[0]);
        assertTrue(lines[0].contains("rd 10 (empty 8) 2KB 1000B/call"), lines[0]);
        assertTrue(lines[1].contains("wr 1 (empty 0, partial 0) 0KB 100B/call"), lines[1]);
        assertTrue(lines[1].contains("retry=0 | rd 0 (empty 0)"), lines[1]);
    }

    @Test
    void isOffByDefaultAndRejectsANegativeInterval() {
        assertEquals(0, TcpConfiguration.from(Map.of()).traceMillis());
        assertEquals(50, TcpConfiguration.from(Map.of("verbatim.tcp.trace-ms", "50")).traceMillis());
        assertThrows(IllegalArgumentException.class,
                () -> TcpConfiguration.from(Map.of("verbatim.tcp.trace-ms", "-1")));
    }
}
