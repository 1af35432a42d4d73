package org.verbatim.transport.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process's locked-memory limit ({@code RLIMIT_MEMLOCK}, {@code ulimit -l}), for the message
 * of a registration the device refused with ENOMEM. Soft-iWARP counts the pages of every
 * registration against this limit, even in a root process (Soft-RoCE and most adapters' drivers
 * exempt a process that may lock memory), and the same page counts once per registration, so
 * many small registrations reach the default 8 MiB quickly.
 */
final class LockedMemory {
    private static final Path LIMITS = Path.of("/proc/self/limits");

    private LockedMemory() {
    }

    /** The soft limit in bytes, -1 for unlimited, or -2 if it cannot be read. */
    static long limit() {
        try {
            for (String line : Files.readAllLines(LIMITS)) {
                if (line.startsWith("Max locked memory")) {
                    String soft = line.substring("Max locked memory".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? -1 : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -2;
        }
        return -2;
    }

    /** A sentence on the limit in force and how to raise it. */
    static String describe() {
        long limit = limit();
        String now = limit == -1 ? "unlimited" : limit == -2 ? "unknown" : (limit / 1024) + " KiB";
        return "The locked-memory limit (ulimit -l) is " + now + "; some devices (Soft-iWARP) count every "
                + "registration's pages against it, even a root process's: raise it (ulimit -l unlimited, or "
                + "memlock in /etc/security/limits.conf), or register fewer, larger buffers.";
    }
}
