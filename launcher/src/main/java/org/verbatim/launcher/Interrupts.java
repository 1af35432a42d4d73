package org.verbatim.launcher;

/**
 * mpirun's own SIGINT handling (Ctrl-C). Java has no public signal API; {@code sun.misc.Signal}
 * (module jdk.unsupported, kept for exactly this use) replaces the JVM's default, which would run
 * the shutdown hooks and exit without the job's summary line.
 */
final class Interrupts {
    private Interrupts() {
    }

    /**
     * Runs {@code action} on a JVM thread each time SIGINT arrives, until the returned handle
     * puts the previous handler back. Where SIGINT cannot be handled (ignored by the shell that
     * started mpirun, or no such API) it keeps the default and the handle does nothing.
     */
    static Runnable onSigint(Runnable action) {
        try {
            sun.misc.Signal sigint = new sun.misc.Signal("INT");
            sun.misc.SignalHandler previous = sun.misc.Signal.handle(sigint, signal -> action.run());
            return () -> sun.misc.Signal.handle(sigint, previous);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return () -> { };
        }
    }
}
