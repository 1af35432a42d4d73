package mpi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.verbatim.datatype.TypeNode;

/** The external32 byte swap of {@link FileExternal32}, without a file. */
class FileExternal32Test {
    @BeforeAll
    static void init() throws MPIException {
        SingletonMpi.init();
    }

    @Test
    void everyPredefinedTypeHasItsWordOrIsRefused() {
        Datatype[] types = {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG,
            MPI.FLOAT, MPI.DOUBLE, MPI.PACKED, MPI.FLOAT_COMPLEX, MPI.DOUBLE_COMPLEX, MPI.INT2,
            MPI.SHORT_INT, MPI.LONG_INT, MPI.FLOAT_INT, MPI.DOUBLE_INT};
        int[] words = {1, 2, 2, 1, 4, 8, 4, 8, 1, 4, 8, 4, 0, 0, 4, 0};
        for (int i = 0; i < types.length; i++) {
            assertEquals(words[i], FileExternal32.wordOf((TypeNode.Leaf) types[i].node),
                    types[i].toString());
        }
    }

    @Test
    void aMixedStructSwapsFieldByFieldAndStopsAtTheLimit() throws MPIException {
        Datatype t = Datatype.createStruct(new int[] {1, 2, 1}, new int[] {0, 4, 16},
                new Datatype[] {MPI.SHORT, MPI.INT, MPI.DOUBLE});
        t.commit();
        ByteBuffer packed = ByteBuffer.allocate(2 * 18).order(ByteOrder.nativeOrder());
        for (int e = 0; e < 2; e++) {
            packed.putShort((short) (0x0102 + e)).putInt(0x03040506).putInt(-7)
                    .putDouble(e + 0.5);
        }
        MemorySegment s = MemorySegment.ofArray(packed.array());
        // stop inside the second element's first int: the short swaps, the cut int does not
        FileExternal32.swap(t.node, 2, s, 0, 18 + 2 + 3);
        ByteBuffer want = ByteBuffer.allocate(2 * 18).order(ByteOrder.BIG_ENDIAN);
        want.putShort((short) 0x0102).putInt(0x03040506).putInt(-7).putDouble(0.5)
                .putShort((short) 0x0103);
        ByteBuffer rest = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
        rest.putInt(0x03040506).putInt(-7).putDouble(1.5);
        want.put(rest.array());
        assertArrayEquals(want.array(), packed.array());
    }

    @Test
    void typesHoldingPaddedPairsAreRefusedByName() throws MPIException {
        Datatype v = Datatype.createVector(2, 1, 3, MPI.LONG_INT);
        v.commit();
        MPIException e = assertThrows(MPIException.class,
                () -> FileExternal32.check(v, "filetype"));
        assertEquals(MPI.ERR_UNSUPPORTED_DATAREP, e.getErrorClass());
        assertEquals(true, e.getMessage().contains("MPI_LONG_INT"), e.getMessage());
        FileExternal32.check(MPI.DOUBLE_COMPLEX, "etype");
    }
}
