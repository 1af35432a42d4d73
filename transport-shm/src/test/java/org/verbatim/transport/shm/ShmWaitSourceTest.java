package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.WaitSource;

/**
 * The wait source: an eventfd that peers ring only while the owner announced that it sleeps, so
 * that the runtime can poll it with other descriptors; the futex where there is no eventfd.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmWaitSourceTest {
    private static final long LONG_WAIT_NANOS = TimeUnit.SECONDS.toNanos(20);

    @Test
    void eventFdBecomesReadableOnACommitOnlyWhileArmed() throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, Map.of()); Arena arena = Arena.ofConfined()) {
            WaitSource source = ranks.transports[1].waitSource();
            assertNull(ranks.transports[1].eventFdUnavailabilityCause());
            assertTrue(source.fd() >= 0, "an eventfd");
            MemorySegment fds = arena.allocate(FileDescriptors.POLLFD_SIZE, 8);

            // not armed: a commit does not touch the eventfd
            send(ranks, 0, 1);
            assertEquals(0, poll(arena, fds, 0, source.fd()));
            assertFalse(source.arm(), "a record is waiting: no sleep");
            source.disarm();
            ranks.awaitReceived(1, 1);

            assertTrue(source.arm());
            assertEquals(0, poll(arena, fds, 0, source.fd()), "nothing yet");
            send(ranks, 0, 1);
            assertEquals(1, poll(arena, fds, LONG_WAIT_NANOS, source.fd()), "the commit rang");
            source.disarm();
            assertEquals(0, poll(arena, fds, 0, source.fd()), "disarm drained the eventfd");
            ranks.awaitReceived(1, 2);
            send(ranks, 0, 1);
            assertEquals(0, poll(arena, fds, 0, source.fd()), "disarmed: no ring");
            ranks.awaitReceived(1, 3);
        }
    }

    @Test
    void twoSourcesCombineInOnePoll() throws Exception {
        try (ShmRanks ranks = new ShmRanks(3, Map.of()); Arena arena = Arena.ofConfined()) {
            WaitSource one = ranks.transports[1].waitSource();
            WaitSource two = ranks.transports[2].waitSource();
            assertTrue(one.arm());
            assertTrue(two.arm());
            MemorySegment fds = arena.allocate(2 * FileDescriptors.POLLFD_SIZE, 8);
            FileDescriptors.setPollfd(fds, 0, one.fd(), FileDescriptors.POLLIN);
            FileDescriptors.setPollfd(fds, 1, two.fd(), FileDescriptors.POLLIN);
            Thread sender = new Thread(() -> {
                sleepQuietly(50);
                send(ranks, 0, 2);
            });
            sender.start();
            MemorySegment timespec = arena.allocate(Futex.TIMESPEC_SIZE, 8);
            Futex.setTimeout(timespec, LONG_WAIT_NANOS);
            assertEquals(1, FileDescriptors.ppoll(LinuxSyscalls.allocateErrno(arena), fds, 2, timespec));
            sender.join();
            assertEquals(0, fds.get(ValueLayout.JAVA_SHORT, 6), "rank 1's stays quiet");
            assertEquals(FileDescriptors.POLLIN, fds.get(ValueLayout.JAVA_SHORT, 14), "rank 2's rang");
            one.disarm();
            two.disarm();
            ranks.awaitReceived(2, 1);
        }
    }

    @Test
    void sleepAloneWakesOnACommitWithEventFdAndWithFutex() throws Exception {
        for (boolean eventFd : new boolean[] {true, false}) {
            Map<String, String> config = new HashMap<>();
            config.put(ShmConfiguration.EVENTFD.name(), Boolean.toString(eventFd));
            try (ShmRanks ranks = new ShmRanks(2, config)) {
                WaitSource source = ranks.transports[1].waitSource();
                assertEquals(eventFd, source.fd() >= 0);
                if (!eventFd) {
                    assertEquals("disabled by verbatim.shm.eventfd=false",
                            ranks.transports[1].eventFdUnavailabilityCause());
                }
                assertTrue(source.arm());
                Thread sender = new Thread(() -> {
                    sleepQuietly(50);
                    send(ranks, 0, 1);
                });
                long start = System.nanoTime();
                sender.start();
                source.sleep(LONG_WAIT_NANOS);
                source.disarm();
                sender.join();
                assertTrue(System.nanoTime() - start < LONG_WAIT_NANOS / 2,
                        "woken by the commit, not the timeout (eventfd=" + eventFd + ")");
                ranks.awaitReceived(1, 1);
            }
        }
    }

    @Test
    void localWorkRefusesToArm() throws Exception {
        try (ShmRanks ranks = new ShmRanks(2, Map.of()); Arena arena = Arena.ofConfined()) {
            MemorySegment target = arena.allocate(64, 8);
            var registration = ranks.transports[1].register(target);
            // a CMA write's completion waits for rank 0's next progress
            assertEquals(PostStatus.OK, ranks.transports[0].endpoint(1).write(
                    arena.allocate(8, 8), target.address(), registration.remoteKey(), 1));
            assertFalse(ranks.transports[0].waitSource().arm());
            ranks.transports[0].waitSource().disarm();
            ranks.await(0, 1);
            assertTrue(ranks.transports[0].waitSource().arm());
            ranks.transports[0].waitSource().disarm();
            registration.close();
        }
    }

    private static void send(ShmRanks ranks, int from, int to) {
        while (ranks.transports[from].endpoint(to).send(MemorySegment.ofArray(new byte[] {1}),
                MemorySegment.NULL) != PostStatus.OK) {
            Thread.onSpinWait();
        }
    }

    private static int poll(Arena arena, MemorySegment fds, long nanos, int fd) {
        FileDescriptors.setPollfd(fds, 0, fd, FileDescriptors.POLLIN);
        MemorySegment timespec = arena.allocate(Futex.TIMESPEC_SIZE, 8);
        Futex.setTimeout(timespec, nanos);
        return FileDescriptors.ppoll(LinuxSyscalls.allocateErrno(arena), fds, 1, timespec);
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
