package org.verbatim.launcher;

/** How mpirun words a process's exit status in its messages. */
final class ExitStatus {
    private ExitStatus() {
    }

    /** "was killed by signal 9 (SIGKILL)" or "exited with status 3". */
    static String describe(int code) {
        // Java reports a death by signal s as 128 + s.
        if (code > 128 && code < 128 + 65) {
            int signal = code - 128;
            return "was killed by signal " + signal + signalName(signal);
        }
        return "exited with status " + code;
    }

    private static String signalName(int s) {
        String name = switch (s) {
            case 1 -> "SIGHUP";
            case 2 -> "SIGINT";
            case 3 -> "SIGQUIT";
            case 4 -> "SIGILL";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 8 -> "SIGFPE";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 13 -> "SIGPIPE";
            case 14 -> "SIGALRM";
            case 15 -> "SIGTERM";
            default -> null;
        };
        return name == null ? "" : " (" + name + ")";
    }
}
