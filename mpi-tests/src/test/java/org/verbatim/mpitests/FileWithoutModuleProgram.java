package org.verbatim.mpitests;

import mpi.File;
import mpi.MPI;

/** Run without the io module on the class path: opening and deleting files are refused. */
public final class FileWithoutModuleProgram {
    private FileWithoutModuleProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Checks c = new Checks(MPI.COMM_WORLD.getRank());
        String path = args[0] + "/nothing";
        c.expectError("open", MPI.ERR_UNSUPPORTED_OPERATION, "MPI_File_open",
                () -> new File(MPI.COMM_WORLD, path, MPI.MODE_CREATE | MPI.MODE_RDWR));
        c.expectError("delete", MPI.ERR_UNSUPPORTED_OPERATION, "MPI_File_delete",
                () -> File.delete(path));
        c.expectException("the message names the module", "verbatim-io",
                () -> new File(MPI.COMM_WORLD, path, MPI.MODE_RDONLY));
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }
}
