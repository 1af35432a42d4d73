package mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import org.junit.jupiter.api.Test;

/**
 * The segments the bindings make of user buffers. A direct Buffer's segment must carry the
 * buffer's own scope: the ib transport's pin-down cache hands out a registration only for the
 * same scope, and a segment in the global scope (what an address makes) would match a new buffer
 * at a freed buffer's address, so RDMA would write into the old, unpinned pages.
 */
class BuffersTest {

    @Test
    void directBufferSegmentsCarryTheBuffersScope() throws MPIException {
        ByteBuffer a = ByteBuffer.allocateDirect(4096);
        ByteBuffer b = ByteBuffer.allocateDirect(4096);
        MemorySegment sa = Buffers.forSend(a, 4096, MPI.BYTE);
        MemorySegment sb = Buffers.forSend(b, 4096, MPI.BYTE);
        assertNotEquals(MemorySegment.NULL.scope(), sa.scope(), "a buffer in the global scope");
        assertNotEquals(sa.scope(), sb.scope(), "two allocations share a scope");
        // every view of one allocation has the allocation's scope (so the cache still hits)
        ByteBuffer view = MPI.slice(a, 1024);
        assertEquals(sa.scope(), Buffers.forReceive(view, 16, MPI.BYTE).scope());
        assertEquals(sa.scope(), Buffers.forSend(a.asIntBuffer(), 4, MPI.INT).scope());
    }

    @Test
    void directBufferSegmentsStartAtTheSliceAndIgnorePositionAndLimit() throws MPIException {
        ByteBuffer a = ByteBuffer.allocateDirect(64);
        long base = MemorySegment.ofBuffer(a).address();
        a.position(8).limit(16);
        MemorySegment s = Buffers.forSend(a, 64, MPI.BYTE);
        assertEquals(base, s.address());
        assertEquals(64, s.byteSize());
        assertEquals(8, a.position(), "the user's buffer was changed");
        assertEquals(16, a.limit(), "the user's buffer was changed");
        ByteBuffer view = MPI.slice(a.clear(), 40);
        assertEquals(base + 40, Buffers.forSend(view, 24, MPI.BYTE).address());
        // slice moved a's position, as the reference's does
        IntBuffer ints = a.clear().asIntBuffer().position(3);
        assertEquals(base, Buffers.forSend(ints, 16, MPI.INT).address());
    }

    @Test
    void tooSmallAndReadOnlyBuffersAreRefused() {
        ByteBuffer a = ByteBuffer.allocateDirect(16);
        MPIException small = assertThrows(MPIException.class,
                () -> Buffers.forSend(a, 17, MPI.BYTE));
        assertEquals(MPI.ERR_BUFFER, small.getErrorClass());
        MPIException readOnly = assertThrows(MPIException.class,
                () -> Buffers.forReceive(a.asReadOnlyBuffer(), 4, MPI.BYTE));
        assertEquals(MPI.ERR_BUFFER, readOnly.getErrorClass());
        assertTrue(readOnly.getMessage().contains("read-only"), readOnly.getMessage());
    }

    @Test
    void newBuffersStartOnACacheLineWithTheirExactCapacity() throws MPIException {
        for (int capacity : new int[] {0, 1, 63, 64, 65, 4096, 128 * 4096 * 4 + 3}) {
            ByteBuffer b = MPI.newByteBuffer(capacity);
            assertTrue(b.isDirect());
            assertEquals(capacity, b.capacity());
            assertEquals(0, b.position());
            assertEquals(capacity, b.limit());
            assertEquals(java.nio.ByteOrder.nativeOrder(), b.order());
            assertEquals(0, MemorySegment.ofBuffer(b).address() % 64, "capacity " + capacity);
            if (capacity > 0) {
                b.put(capacity - 1, (byte) 7); // the whole capacity is usable
                assertEquals(7, b.get(capacity - 1));
            }
        }
        IntBuffer ints = MPI.newIntBuffer(1000);
        assertEquals(1000, ints.capacity());
        assertEquals(0, MemorySegment.ofBuffer(ints).address() % 64);
        assertEquals(0, MemorySegment.ofBuffer(MPI.newDoubleBuffer(3)).address() % 64);
        // two allocations keep distinct scopes (the pin-down cache tells them apart by scope)
        assertNotEquals(Buffers.forSend(MPI.newByteBuffer(64), 64, MPI.BYTE).scope(),
                Buffers.forSend(MPI.newByteBuffer(64), 64, MPI.BYTE).scope());
    }
}
