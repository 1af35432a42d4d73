package org.verbatim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ExitStatusTest {
    @Test
    void exitDescriptionsNameTheSignal() {
        assertEquals("was killed by signal 9 (SIGKILL)", ExitStatus.describe(137));
        assertEquals("was killed by signal 11 (SIGSEGV)", ExitStatus.describe(139));
        assertEquals("was killed by signal 40", ExitStatus.describe(168));
        assertEquals("exited with status 3", ExitStatus.describe(3));
    }
}
