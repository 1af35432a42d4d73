package org.verbatim.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies one rank's stdout or stderr to mpirun's, on its own thread, in whole lines (tagged: with a {@code [rank] } prefix), so lines of different ranks never
 * mix. Writes to the shared sink are atomic per line.
 */
final class OutputPump implements Runnable {
    private final InputStream source;
    private final OutputStream sink;
    private final byte[] prefix;

    OutputPump(InputStream source, OutputStream sink, int rank, boolean tag) {
        this.source = source;
        this.sink = sink;
        this.prefix = tag ? ("[" + rank + "] ").getBytes(StandardCharsets.UTF_8) : null;
    }

    static Thread start(InputStream source, OutputStream sink, int rank, boolean tag, String name) {
        Thread t = new Thread(new OutputPump(source, sink, rank, tag), name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public void run() {
        byte[] buf = new byte[8192];
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        try (source) {
            int n;
            while ((n = source.read(buf)) > 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        line.write(buf, start, i + 1 - start);
                        emitLine(line);
                        start = i + 1;
                    }
                }
                line.write(buf, start, n - start);
            }
        } catch (IOException e) {
            // the rank is gone; what was read has been forwarded
        }
        if (line.size() > 0) {
            line.write('\n');
            emitLine(line);
        }
    }

    private void emitLine(ByteArrayOutputStream line) {
        synchronized (sink) {
            try {
                if (prefix != null) {
                    sink.write(prefix);
                }
                line.writeTo(sink);
                sink.flush();
            } catch (IOException ignored) {
                // mpirun's own output is closed; keep draining so the rank does not block
            }
        }
        line.reset();
    }
}
