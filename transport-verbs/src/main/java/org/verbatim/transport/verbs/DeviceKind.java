package org.verbatim.transport.verbs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which family a verbs device belongs to, from sysfs ({@code node_type}): iWARP devices (node
 * type 4, RNIC: siw, cxgb4, irdma in iWARP mode) connect through the RDMA connection manager and
 * belong to transport-iwarp; the others (InfiniBand channel adapters, RoCE) to transport-ib.
 */
public final class DeviceKind {
    private static final Path SYSFS = Path.of("/sys/class/infiniband");

    private DeviceKind() {
    }

    /** Whether {@code device} is an iWARP device (false when sysfs does not say). */
    public static boolean isIwarp(String device) {
        try {
            return Files.readString(SYSFS.resolve(device).resolve("node_type")).trim().startsWith("4");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
