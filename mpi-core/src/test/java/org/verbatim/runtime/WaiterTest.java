package org.verbatim.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.verbatim.spi.Transport;
import org.verbatim.spi.WaitSource;

/** The Waiter sleeps on several transports' descriptors at once and wakes on any of them. */
class WaiterTest {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle PIPE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("pipe").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    private static final MethodHandle WRITE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("write").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("close").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    /** A wait source on the read end of a pipe; counts its arms and disarms. */
    private static final class PipeSource implements WaitSource {
        final int readFd;
        final int writeFd;
        final AtomicInteger arms = new AtomicInteger();
        final AtomicInteger disarms = new AtomicInteger();
        volatile boolean workPending;

        PipeSource(Arena arena) throws Throwable {
            MemorySegment fds = arena.allocate(8, 4);
            assertEquals(0, (int) PIPE.invokeExact(fds));
            readFd = fds.get(ValueLayout.JAVA_INT, 0);
            writeFd = fds.get(ValueLayout.JAVA_INT, 4);
        }

        @Override
        public boolean arm() {
            arms.incrementAndGet();
            return !workPending;
        }

        @Override
        public int fd() {
            return readFd;
        }

        @Override
        public void sleep(long maxNanos) {
            throw new AssertionError("a source alone among several must not sleep by itself");
        }

        @Override
        public void disarm() {
            disarms.incrementAndGet();
        }

        void ring(Arena arena) throws Throwable {
            long n = (long) WRITE.invokeExact(writeFd, arena.allocate(1), 1L);
            assertEquals(1, n);
        }

        void close() throws Throwable {
            int a = (int) CLOSE.invokeExact(readFd);
            int b = (int) CLOSE.invokeExact(writeFd);
        }
    }

    private static Transport transportWith(WaitSource source) {
        return (Transport) java.lang.reflect.Proxy.newProxyInstance(
                WaiterTest.class.getClassLoader(), new Class<?>[] {Transport.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "waitSource" -> source;
                    case "name" -> "pipe";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void anEventOnEitherOfTwoSourcesEndsTheSleep() throws Throwable {
        try (Arena arena = Arena.ofShared()) {
            PipeSource a = new PipeSource(arena);
            PipeSource b = new PipeSource(arena);
            try (Waiter w = new Waiter(List.of(transportWith(a), transportWith(b)), false)) {
                assertEquals(2, w.sourceCount());
                Thread ringer = new Thread(() -> {
                    try {
                        Thread.sleep(200);
                        b.ring(arena);
                    } catch (Throwable t) {
                        throw new RuntimeException(t);
                    }
                });
                ringer.start();
                long t0 = System.nanoTime();
                w.sleep(TimeUnit.SECONDS.toNanos(20)); // far beyond the test's limit
                long slept = System.nanoTime() - t0;
                ringer.join();
                assertTrue(slept < TimeUnit.SECONDS.toNanos(20), "woke only at the time limit");
                assertEquals(1, a.arms.get());
                assertEquals(1, a.disarms.get(), "every armed source is disarmed");
                assertEquals(1, b.disarms.get());
            } finally {
                a.close();
                b.close();
            }
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void pendingWorkOnOneSourceMeansNoSleepAtAll() throws Throwable {
        try (Arena arena = Arena.ofShared()) {
            PipeSource a = new PipeSource(arena);
            PipeSource b = new PipeSource(arena);
            b.workPending = true;
            try (Waiter w = new Waiter(List.of(transportWith(a), transportWith(b)), false)) {
                w.sleep(TimeUnit.SECONDS.toNanos(60)); // would exceed the test's limit
                assertEquals(1, a.disarms.get());
                assertEquals(1, b.disarms.get(), "the refusing source is disarmed too");
            } finally {
                a.close();
                b.close();
            }
        }
    }
}
