package mpi;

import org.verbatim.runtime.MpiProcess;

/** The profiler's report printed at finalize when verbatim.core.profile is on. */
final class Profiles {
    private Profiles() {
    }

    static String report(MpiProcess p) {
        var prof = p.profiler();
        long total = prof.totalMessages();
        long unexpected = prof.unexpectedMessages();
        return String.format("verbatim profile, rank %d:%n  communication memory  %d bytes%n"
                        + "  messages sent         %d%n  unexpected received   %d (%.1f%%)%n%s",
                p.rank(), p.engine().communicationMemory(), total, unexpected,
                total == 0 ? 0.0 : 100.0 * unexpected / Math.max(1, total), prof.histogram());
    }
}
