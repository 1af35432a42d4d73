package org.verbatim.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.MemoryRegistration;
import org.verbatim.spi.SharedSegments;

/** Shared window segments, and atomics done directly on them. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShmSharedSegmentsTest {

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void peersAttachTheSameMemoryAndNoFileRemains(boolean cma) throws Exception {
        try (ShmRanks ranks = new ShmRanks(3, ShmRanks.cma(cma))) {
            SharedSegments creator = ranks.transports[1].extension(SharedSegments.class);
            SharedSegments peer = ranks.transports[0].extension(SharedSegments.class);
            assertNull(ranks.transports[0].extension(String.class));
            SharedSegments.Segment own = creator.create(3 * 4096 + 5);
            assertTrue(own.creator());
            assertEquals(3 * 4096 + 5, own.memory().byteSize());
            assertTrue(peer.attachable(own.handle()));
            assertFalse(peer.attachable("nonsense"));
            assertEquals(List.of(), segmentFiles(), "unlinked as soon as created");
            String[] fields = own.handle().split(":");
            Path fd = Path.of("/proc/self/fd/" + fields[3]);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fd)));

            SharedSegments.Segment attached = peer.attach(own.handle());
            assertFalse(attached.creator());
            own.memory().set(ValueLayout.JAVA_LONG, 4096, 0x1122334455L);
            assertEquals(0x1122334455L, attached.memory().get(ValueLayout.JAVA_LONG, 4096));
            attached.memory().set(ValueLayout.JAVA_BYTE, 3 * 4096 + 4, (byte) 7);
            assertEquals(7, own.memory().get(ValueLayout.JAVA_BYTE, 3 * 4096 + 4));
            attached.close();

            own.close();
            assertThrows(IllegalStateException.class, () -> peer.attach(own.handle()),
                    "a closed segment cannot be attached");
            assertThrows(IllegalArgumentException.class, () -> peer.attach("shm1:x"));
        }
    }

    @ParameterizedTest(name = "cma={0}")
    @ValueSource(booleans = {true, false})
    void atomicsOnASharedSegmentRunDirectlyAndAgreeWithEmulatedOnes(boolean cma) throws Exception {
        try (ShmRanks ranks = new ShmRanks(3, ShmRanks.cma(cma)); Arena arena = Arena.ofConfined()) {
            SharedSegments.Segment window = ranks.transports[1].extension(SharedSegments.class)
                    .create(4096);
            SharedSegments.Segment mapped = ranks.transports[0].extension(SharedSegments.class)
                    .attach(window.handle());
            MemoryRegistration registration = ranks.transports[1].register(window.memory());
            assertTrue(RemoteKeys.shared(registration.remoteKey()));
            MemorySegment result = arena.allocate(8, 8);
            long address = window.memory().address() + 64;
            long key = registration.remoteKey();
            Endpoint direct = ranks.transports[0].endpoint(1);
            // direct: completes with only the initiator progressing
            for (int i = 0; i < 100; i++) {
                assertEquals(0, direct.fetchAndAdd(result, address, key, 2, i));
                while (!ranks.recorders[0].statuses.containsKey((long) i)) {
                    ranks.transports[0].progress();
                }
                assertEquals(CompletionStatus.OK, ranks.recorders[0].statuses.get((long) i));
                assertEquals(2L * i, result.get(ValueLayout.JAVA_LONG, 0));
            }
            // rank 2 did not attach: the target applies its atomics, on the same word
            Endpoint emulated = ranks.transports[2].endpoint(1);
            ranks.post(() -> emulated.fetchAndAdd(result, address, key, 1000, 500));
            assertEquals(CompletionStatus.OK, ranks.await(2, 500));
            assertEquals(200, result.get(ValueLayout.JAVA_LONG, 0));
            ranks.post(() -> direct.compareAndSwap(result, address, key, 1200, 5, 501));
            assertEquals(CompletionStatus.OK, ranks.await(0, 501));
            assertEquals(1200, result.get(ValueLayout.JAVA_LONG, 0));
            assertEquals(5, window.memory().get(ValueLayout.JAVA_LONG, 64));
            assertEquals(5, mapped.memory().get(ValueLayout.JAVA_LONG, 64));

            ranks.post(() -> direct.fetchAndAdd(result, address + 4, key, 1, 502));
            assertEquals(CompletionStatus.REMOTE_OPERATION_ERROR, ranks.await(0, 502));
            MemoryRegistration noAtomics = ranks.transports[1].register(window.memory(),
                    Access.REMOTE_READ | Access.REMOTE_WRITE);
            ranks.post(() -> direct.fetchAndAdd(result, address, noAtomics.remoteKey(), 1, 503));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, ranks.await(0, 503));
            assertEquals(5, window.memory().get(ValueLayout.JAVA_LONG, 64));
            noAtomics.close();
            registration.close();
            mapped.close();
            window.close();
        }
    }

    private static List<Path> segmentFiles() throws Exception {
        try (Stream<Path> files = Files.list(Path.of("/dev/shm"))) {
            return files.filter(p -> p.getFileName().toString().contains("-seg-")).toList();
        }
    }
}
