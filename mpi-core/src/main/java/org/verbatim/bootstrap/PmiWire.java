package org.verbatim.bootstrap;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The PMI-1 wire format: one command per line, {@code cmd=<name>} followed by space-separated
 * {@code key=value} fields. Shared by the client in mpi-core and the server in the launcher.
 *
 * <p>PMI values may not contain spaces, {@code =} or newlines (Hydra splits on them), so keys and
 * values that Verbatim puts go through {@link #encode}: letters, digits and {@code -_.:/,+@}
 * pass unchanged, every other byte of the UTF-8 form becomes {@code %XX}, and the empty string
 * becomes a lone {@code %} (PMI servers drop empty fields).
 */
public final class PmiWire {
    /** Longest line we accept; Hydra's own limit is 1024 bytes of value plus the command. */
    public static final int MAX_LINE = 64 * 1024;

    private PmiWire() {
    }

    /** Parses {@code cmd=put kvsname=k key=a value=b} into an ordered map (first key "cmd"). */
    public static Map<String, String> parse(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String token : line.trim().split("\\s+")) {
            if (token.isEmpty()) {
                continue;
            }
            int eq = token.indexOf('=');
            if (eq < 0) {
                fields.put(token, "");
            } else {
                fields.put(token.substring(0, eq), token.substring(eq + 1));
            }
        }
        return fields;
    }

    /** Formats {@code cmd} and alternating key, value arguments into a line without newline. */
    public static String format(String cmd, String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must alternate");
        }
        StringBuilder sb = new StringBuilder(64).append("cmd=").append(cmd);
        for (int i = 0; i < keyValues.length; i += 2) {
            sb.append(' ').append(keyValues[i]).append('=').append(keyValues[i + 1]);
        }
        return sb.toString();
    }

    /** Makes any string safe as a PMI key or value; reversed by {@link #decode}. */
    public static String encode(String s) {
        if (s.isEmpty()) {
            return "%";
        }
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(bytes.length + 8);
        for (byte b : bytes) {
            int c = b & 0xff;
            if (isSafe(c)) {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        return sb.toString();
    }

    /** Reverses {@link #encode}; rejects malformed input. */
    public static String decode(String s) {
        if (s.equals("%")) {
            return "";
        }
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    throw new IllegalArgumentException("truncated escape in PMI value: " + s);
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("bad escape in PMI value: " + s);
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static boolean isSafe(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '_' || c == '.' || c == ':' || c == '/' || c == ',' || c == '+' || c == '@';
    }
}
