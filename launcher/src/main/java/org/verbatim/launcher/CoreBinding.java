package org.verbatim.launcher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.bootstrap.HostInfo;

/**
 * Pins ranks to cores with {@code taskset}, as Open MPI binds by default: a rank that the
 * scheduler moves between cores loses its caches, and on a busy machine a spinning rank that
 * shares a core with its peer costs whole time slices per message.
 */
final class CoreBinding {
    private CoreBinding() {
    }

    /** The command for {@code rank}: prefixed with {@code taskset -c <core>} when binding. */
    static List<String> wrap(LaunchOptions options, int rank, List<String> command) {
        int cores = HostInfo.onlineCores();
        boolean bind = switch (options.binding()) {
            case CORE -> true;
            case NONE -> false;
            case AUTO -> options.localRanks() <= cores;
        };
        Path taskset = Path.of("/usr/bin/taskset");
        if (!bind || !Files.isExecutable(taskset) || !runnable(command.get(0))) {
            return command; // a program that cannot start is reported as such, not by taskset
        }
        List<String> out = new ArrayList<>(List.of(taskset.toString(), "-c",
                Integer.toString(rank % cores)));
        out.addAll(command);
        return out;
    }

    /** True if {@code program} is an executable file, by path or on PATH. */
    static boolean runnable(String program) {
        if (program.contains("/")) {
            return Files.isExecutable(Path.of(program));
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
