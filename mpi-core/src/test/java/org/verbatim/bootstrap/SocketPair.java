package org.verbatim.bootstrap;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** socketpair(2) through FFM: two connected descriptors, as a process manager would hand one down. */
final class SocketPair {
    private static final int AF_UNIX = 1;
    private static final int SOCK_STREAM = 1;

    private SocketPair() {
    }

    @SuppressWarnings("restricted")
    static int[] open() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle socketpair = linker.downcallHandle(linker.defaultLookup().find("socketpair").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sv = arena.allocate(ValueLayout.JAVA_INT, 2);
            int rc = (int) socketpair.invokeExact(AF_UNIX, SOCK_STREAM, 0, sv);
            if (rc != 0) {
                throw new IllegalStateException("socketpair failed");
            }
            return new int[] {sv.getAtIndex(ValueLayout.JAVA_INT, 0), sv.getAtIndex(ValueLayout.JAVA_INT, 1)};
        }
    }
}
