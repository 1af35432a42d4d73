package org.verbatim.bootstrap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Splits a byte stream into lines, keeping what follows the last newline for the next call. */
final class LineBuffer {
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream(256);
    private final byte[] pending;
    private int start;
    private int end;

    LineBuffer(int capacity) {
        pending = new byte[capacity];
    }

    /** Space to fill with fresh bytes; call {@link #filled} with how many were written. */
    byte[] array() {
        start = 0;
        end = 0;
        return pending;
    }

    void filled(int n) {
        end = n;
    }

    /** The next complete line from the buffered bytes, or null if more bytes are needed. */
    String nextLine() throws IOException {
        for (int i = start; i < end; i++) {
            if (pending[i] == '\n') {
                partial.write(pending, start, i - start);
                start = i + 1;
                String line = partial.toString(StandardCharsets.UTF_8);
                partial.reset();
                return line;
            }
        }
        partial.write(pending, start, end - start);
        start = end;
        if (partial.size() > PmiWire.MAX_LINE) {
            throw new IOException("PMI line longer than " + PmiWire.MAX_LINE + " bytes");
        }
        return null;
    }

    /**
     * The next {@code n} bytes (as UTF-8 text) from the buffered bytes, or null if more are
     * needed: PMI-2's frames have a length, not a newline.
     */
    String nextBytes(int n) {
        int take = Math.min(n - partial.size(), end - start);
        partial.write(pending, start, take);
        start += take;
        if (partial.size() < n) {
            return null;
        }
        String s = partial.toString(StandardCharsets.UTF_8);
        partial.reset();
        return s;
    }

    boolean hasBuffered() {
        return start < end;
    }
}
