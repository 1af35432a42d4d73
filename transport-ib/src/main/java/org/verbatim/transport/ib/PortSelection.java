package org.verbatim.transport.ib;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.spi.TransportException;
import org.verbatim.transport.verbs.DeviceKind;
import org.verbatim.verbs.Context;
import org.verbatim.verbs.DeviceList;
import org.verbatim.verbs.PortAttributes;

/**
 * Chooses the device, port and (RoCE) GID index from the configuration or automatically, and
 * opens the device. iWARP devices (node type RNIC, for example siw) are skipped: their queue pairs
 * connect through the RDMA connection manager, which is transport-iwarp's business.
 */
final class PortSelection {

    /** The opened device and the port this process talks through. */
    record Selected(Context context, int port, PortAttributes attributes, int gidIndex, byte[] gid) {
        boolean roce() {
            return attributes.isEthernet();
        }

        String describe() {
            return context.name() + " port " + port + (roce() ? " (RoCE, GID index " + gidIndex + ")"
                    : " (InfiniBand, LID " + attributes.lid() + ")");
        }
    }

    private static final Path SYSFS = Path.of("/sys/class/infiniband");

    private PortSelection() {
    }

    static Selected open(IbConfiguration config) throws TransportException {
        List<String> problems = new ArrayList<>();
        try (DeviceList devices = new DeviceList()) {
            List<String> names = config.device.isEmpty() ? devices.names() : List.of(config.device);
            for (String name : names) {
                if (!devices.names().contains(name)) {
                    problems.add(name + ": no such device (have " + devices.names() + ")");
                    continue;
                }
                if (isIwarp(name)) {
                    problems.add(name + ": iWARP device (use transport iwarp)");
                    continue;
                }
                Context context = devices.open(name);
                try {
                    Selected s = choosePort(context, config, problems);
                    if (s != null) {
                        return s;
                    }
                } catch (RuntimeException e) {
                    problems.add(name + ": " + e.getMessage());
                }
                context.close();
            }
        } catch (RuntimeException e) {
            throw new TransportException("ib: cannot list RDMA devices: " + e.getMessage(), e);
        }
        throw new TransportException("ib: no usable RDMA device port: " + String.join("; ", problems)
                + " (set " + IbConfiguration.DEVICE.name() + " / " + IbConfiguration.PORT.name() + ")");
    }

    private static Selected choosePort(Context context, IbConfiguration config, List<String> problems) {
        int first = config.port == 0 ? 1 : config.port;
        int last = config.port == 0 ? 2 : config.port;
        for (int port = first; port <= last; port++) {
            PortAttributes attr;
            try {
                attr = context.queryPort(port);
            } catch (RuntimeException e) {
                if (config.port != 0) {
                    problems.add(context.name() + " port " + port + ": " + e.getMessage());
                }
                break;
            }
            if (!attr.isActive()) {
                problems.add(context.name() + " port " + port + " is not active (state " + attr.state() + ")");
                continue;
            }
            if (!attr.isEthernet()) {
                if (attr.lid() == 0) {
                    problems.add(context.name() + " port " + port + " has no LID (no subnet manager?)");
                    continue;
                }
                return new Selected(context, port, attr, -1, null);
            }
            int index = config.gidIndex >= 0 ? config.gidIndex : roceV2Ipv4Index(context.name(), port);
            if (index >= attr.gidTableLength()) {
                problems.add(context.name() + " port " + port + ": GID index " + index + " beyond the table ("
                        + attr.gidTableLength() + ")");
                continue;
            }
            byte[] gid = context.queryGid(port, index);
            if (isZero(gid)) {
                problems.add(context.name() + " port " + port + ": GID " + index + " is empty");
                continue;
            }
            return new Selected(context, port, attr, index, gid);
        }
        return null;
    }

    static boolean isIwarp(String device) {
        return DeviceKind.isIwarp(device);
    }

    /** The index of the RoCE v2 GID that maps an IPv4 address (::ffff:a.b.c.d), else 0. */
    static int roceV2Ipv4Index(String device, int port) {
        Path dir = SYSFS.resolve(device).resolve("ports").resolve(Integer.toString(port));
        for (int i = 0; i < 256; i++) {
            try {
                String gid = Files.readString(dir.resolve("gids").resolve(Integer.toString(i))).trim();
                if (!gid.startsWith("0000:0000:0000:0000:0000:ffff:")) {
                    continue;
                }
                String type = Files.readString(dir.resolve("gid_attrs").resolve("types")
                        .resolve(Integer.toString(i))).trim();
                if (type.equals("RoCE v2")) {
                    return i;
                }
            } catch (IOException | RuntimeException e) {
                if (i > 16) {
                    break;
                }
            }
        }
        return 0;
    }

    private static boolean isZero(byte[] gid) {
        for (byte b : gid) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }
}
