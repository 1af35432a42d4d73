package org.verbatim.launcher;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Ending rank processes with their descendants. Signals go through the ProcessHandle:
 * Process.destroy() would also close the rank's output pipes, losing what it wrote just before
 * (an abort's reason, a failing rank's last lines).
 */
final class ProcessStops {
    private ProcessStops() {
    }

    /** SIGTERM to every process still alive and its descendants, SIGKILL after {@code graceMillis}. */
    static void terminate(List<Process> all, long graceMillis) throws InterruptedException {
        for (Process p : all) {
            if (p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.toHandle().destroy();
            }
        }
        long deadline = System.currentTimeMillis() + graceMillis;
        for (Process p : all) {
            long left = deadline - System.currentTimeMillis();
            if (left > 0) {
                p.waitFor(left, TimeUnit.MILLISECONDS);
            }
        }
        for (Process p : all) {
            if (p.isAlive()) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.toHandle().destroyForcibly();
            }
        }
        for (Process p : all) {
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** SIGKILL to every process and its descendants at once (mpirun itself is being ended). */
    static void kill(List<Process> all) {
        for (Process p : all) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
