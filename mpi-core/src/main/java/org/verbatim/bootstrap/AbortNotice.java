package org.verbatim.bootstrap;

/** What a rank prints before asking its process manager to end the job (PMI-1 and PMI-2). */
final class AbortNotice {
    private AbortNotice() {
    }

    /**
     * Prints why on stderr (PMI-1's abort carries only the code) and waits until the process
     * manager has read it (Hydra kills the job at once and drops unread output).
     */
    static void print(int rank, int code, String message) {
        System.err.println("[verbatim] rank " + rank + " aborts the job (code " + code + "): " + message);
        System.err.flush();
        StderrDrain.await(500);
    }
}
