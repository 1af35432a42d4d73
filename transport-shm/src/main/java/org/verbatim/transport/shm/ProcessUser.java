package org.verbatim.transport.shm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's user (its effective uid, the owner of the files it creates) and user names. */
final class ProcessUser {
    private ProcessUser() {
    }

    /** The effective uid: {@code /proc/self} belongs to it. */
    static int uid() throws IOException {
        return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue();
    }

    /** "name (uid N)", or "uid N" when /etc/passwd does not name it. */
    static String describe(int uid) {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/passwd"))) {
                String[] f = line.split(":");
                if (f.length > 2 && f[2].equals(Integer.toString(uid))) {
                    return f[0] + " (uid " + uid + ")";
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // no names: the number says it
        }
        return "uid " + uid;
    }
}
