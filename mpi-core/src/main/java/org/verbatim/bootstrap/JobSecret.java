package org.verbatim.bootstrap;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;

/**
 * The per-job secret of Verbatim's PMI service. mpirun makes one per job (or takes the user's
 * {@value #VARIABLE}), gives it to its ranks in that variable and to the mpiruns it starts on
 * other hosts through ssh's stdin; every connection to the PMI service must present it first
 * ({@code cmd=auth secret=...}) or is refused. Without it anyone who reaches the port could
 * read every rank's addresses and RDMA keys, or end the job.
 */
public final class JobSecret {
    /** The environment variable that carries the secret to ranks and joining mpiruns. */
    public static final String VARIABLE = "VERBATIM_JOB_SECRET";
    private static final int BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private JobSecret() {
    }

    /** A new random secret: 128 bits, as 32 hexadecimal digits. */
    public static String generate() {
        byte[] b = new byte[BYTES];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** The secret in {@code env}, or null when none is set. */
    public static String of(Map<String, String> env) {
        String s = env.get(VARIABLE);
        return s == null || s.isBlank() ? null : s.strip();
    }

    /**
     * Refuses a secret that cannot travel in a PMI line (spaces, '=', newlines) with a clear
     * message; returns it otherwise.
     */
    public static String check(String secret) {
        if (secret.isEmpty() || !secret.chars().allMatch(c -> c > ' ' && c < 127 && c != '=')) {
            throw new IllegalArgumentException(VARIABLE + " must be printable ASCII without spaces or '=' "
                    + "(mpirun makes one when it is unset)");
        }
        return secret;
    }

    /** True if {@code given} is {@code expected}, in time that does not depend on where they differ. */
    public static boolean matches(String expected, String given) {
        if (expected == null || given == null) {
            return false;
        }
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
    }
}
