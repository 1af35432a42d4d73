package org.verbatim.bootstrap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Facts about this host that both the launcher and the ranks need. */
public final class HostInfo {
    private HostInfo() {
    }

    /**
     * Online CPUs of the host, from sysfs. Not availableProcessors(): a rank pinned to one core
     * sees 1 there, which says nothing about how many ranks the host runs at once.
     */
    public static int onlineCores() {
        try {
            String spec = Files.readString(Path.of("/sys/devices/system/cpu/online")).trim();
            int n = 0;
            for (String part : spec.split(",")) {
                String[] range = part.split("-");
                n += range.length == 1 ? 1
                        : Integer.parseInt(range[1]) - Integer.parseInt(range[0]) + 1;
            }
            return Math.max(1, n);
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** The host name, as the kernel knows it. */
    public static String hostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (IOException | RuntimeException e) {
            try {
                return java.net.InetAddress.getLocalHost().getHostName();
            } catch (IOException e2) {
                return "localhost";
            }
        }
    }
}
