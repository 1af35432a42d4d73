package org.verbatim.mpitests;

import mpi.MPI;
import mpi.Win;

/** Run without the onesided module on the class path: every way to make a window is refused. */
public final class WinWithoutModuleProgram {
    private WinWithoutModuleProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Checks c = new Checks(MPI.COMM_WORLD.getRank());
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        c.expectError("create", MPI.ERR_UNSUPPORTED_OPERATION, "MPI_Win_create",
                () -> new Win(MPI.newIntBuffer(4), 4, 1, MPI.INFO_NULL, MPI.COMM_WORLD));
        c.expectError("allocate", MPI.ERR_UNSUPPORTED_OPERATION, "MPI_Win_allocate",
                () -> Win.allocate(16, 1, MPI.INFO_NULL, MPI.COMM_WORLD));
        c.expectError("allocate shared", MPI.ERR_UNSUPPORTED_OPERATION, "MPI_Win_allocate_shared",
                () -> new Win(4, 1, MPI.INFO_NULL, MPI.COMM_WORLD, MPI.newIntBuffer(1),
                        Win.FLAVOR_SHARED));
        c.expectError("create dynamic", MPI.ERR_UNSUPPORTED_OPERATION, "MPI_Win_create_dynamic",
                () -> new Win(MPI.INFO_NULL, MPI.COMM_WORLD));
        c.expectException("the message names the module", "verbatim-onesided",
                () -> Win.allocate(16, 1, MPI.INFO_NULL, MPI.COMM_WORLD));
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }
}
