package org.verbatim.mpitests;

import java.nio.ByteBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * verbatim.core.check-types: pairs of ranks exchange messages whose sender and receiver types
 * match (INT as INT, four INTs as two contiguous pairs, a struct against its own layout, anything
 * as BYTE) or do not (INT as DOUBLE, a struct as its fields reversed), eagerly and by rendezvous,
 * expected and unexpected. Argument {@code on}: mismatches end the receive with MPI_ERR_TYPE and
 * matches pass; {@code off}: the mismatches are delivered silently, as MPI leaves them. Runs on an
 * even number of ranks.
 */
public final class TypeCheckProgram {
    private static final int SMALL = 64;
    private static final int LARGE = 40_000; // ints: above every transport's eager limit

    private TypeCheckProgram() {
    }

    public static void main(String[] args) throws Exception {
        boolean on = args.length > 0 && args[0].equals("on");
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        Checks c = new Checks(world.getRank());
        int rank = world.getRank();
        int peer = rank ^ 1;
        boolean sender = rank % 2 == 0;
        int tag = 1;
        for (int n : new int[] {SMALL, LARGE}) {
            for (boolean unexpected : new boolean[] {false, true}) {
                String how = n + " ints, " + (unexpected ? "unexpected" : "expected");
                // matching: INT as INT
                exchange(c, world, sender, peer, tag++, unexpected, MPI.INT, n, MPI.INT, n, true, on,
                        "INT as INT, " + how);
                // matching: n INTs as n/2 contiguous pairs of INT
                Datatype pair = Datatype.createContiguous(2, MPI.INT);
                pair.commit();
                exchange(c, world, sender, peer, tag++, unexpected, MPI.INT, n, pair, n / 2, true, on,
                        "INT as contiguous pairs, " + how);
                pair.free();
                // matching: anything as BYTE
                exchange(c, world, sender, peer, tag++, unexpected, MPI.INT, n, MPI.BYTE, 4 * n, true, on,
                        "INT as BYTE, " + how);
                // mismatch: INT as FLOAT (same size, other type)
                exchange(c, world, sender, peer, tag++, unexpected, MPI.INT, n, MPI.FLOAT, n, false, on,
                        "INT as FLOAT, " + how);
                // mismatch: INT as DOUBLE (the receive is large enough)
                exchange(c, world, sender, peer, tag++, unexpected, MPI.INT, n, MPI.DOUBLE, n, false, on,
                        "INT as DOUBLE, " + how);
                // struct {int; float} against {float; int}: same size and layout, other signature
                Datatype intFloat = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4},
                        new Datatype[] {MPI.INT, MPI.FLOAT});
                Datatype floatInt = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 4},
                        new Datatype[] {MPI.FLOAT, MPI.INT});
                intFloat.commit();
                floatInt.commit();
                exchange(c, world, sender, peer, tag++, unexpected, intFloat, n / 2, intFloat, n / 2, true, on,
                        "struct as itself, " + how);
                exchange(c, world, sender, peer, tag++, unexpected, intFloat, n / 2, floatInt, n / 2, false, on,
                        "struct as its fields reversed, " + how);
                intFloat.free();
                floatInt.free();
            }
        }
        world.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

    /**
     * The sender sends {@code sendCount} of {@code sendType}; the receiver receives into room for
     * {@code recvCount} of {@code recvType}, before the send (expected) or after it (unexpected).
     */
    private static void exchange(Checks c, Intracomm world, boolean sender, int peer, int tag,
                                 boolean unexpected, Datatype sendType, int sendCount, Datatype recvType,
                                 int recvCount, boolean matches, boolean on, String name) throws MPIException {
        int sendBytes = sendCount * 8; // room for every type here (extents up to 8 bytes)
        if (sender) {
            ByteBuffer out = MPI.newByteBuffer(sendBytes);
            if (unexpected) {
                // eager: sent before the receive is posted; rendezvous: its RTS is
                mpi.Request r = world.iSend(out, sendCount, sendType, peer, tag);
                world.barrier();
                r.waitFor();
            } else {
                world.barrier();
                world.send(out, sendCount, sendType, peer, tag);
            }
            return;
        }
        ByteBuffer in = MPI.newByteBuffer(recvCount * 8 + 16);
        if (unexpected) {
            world.barrier();
            mpi.Request r = world.iRecv(in, recvCount, recvType, peer, tag);
            check(c, () -> r.waitStatus(), matches, on, name);
        } else {
            mpi.Request r = world.iRecv(in, recvCount, recvType, peer, tag);
            world.barrier();
            check(c, () -> r.waitStatus(), matches, on, name);
        }
    }

    private interface Wait {
        Status run() throws MPIException;
    }

    private static void check(Checks c, Wait wait, boolean matches, boolean on, String name) {
        if (matches || !on) {
            try {
                wait.run();
                c.pass(name + (matches ? " is received" : " is delivered unchecked (check off)"));
            } catch (MPIException e) {
                c.fail(name, "unexpected " + e.getMessage());
            }
            return;
        }
        c.expectError(name + " gets MPI_ERR_TYPE", MPI.ERR_TYPE, null, wait::run);
    }
}
