package org.verbatim.mpitests;

import java.nio.file.Path;
import mpi.Datatype;
import mpi.File;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Bad input to MPI-IO gets its MPI error class, on every rank, and nothing is left half-done:
 * missing files, access modes, writes to read-only files, reads of write-only ones, existing
 * files with MODE_EXCL, data representations, seeks, filetypes, closed files, split collectives
 * out of order, heap buffers where Open MPI's bindings need direct ones. Files return errors by
 * default (ERRORS_RETURN), and callErrhandler returns under it. Argument: a directory.
 */
public final class FileErrorsProgram {
    private FileErrorsProgram() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        Checks c = new Checks(rank);
        Path dir = Path.of(args[0]);
        String missing = dir.resolve("missing").toString();
        String path = dir.resolve("errors").toString();
        c.expectError("open a missing file", MPI.ERR_NO_SUCH_FILE, "MPI_File_open",
                () -> new File(world, missing, MPI.MODE_RDONLY));
        c.expectError("RDONLY with CREATE", MPI.ERR_AMODE, "MPI_File_open",
                () -> new File(world, path, MPI.MODE_RDONLY | MPI.MODE_CREATE));
        c.expectError("no access mode", MPI.ERR_AMODE, "MPI_File_open",
                () -> new File(world, path, MPI.MODE_CREATE));
        c.expectError("RDWR with SEQUENTIAL", MPI.ERR_AMODE, "MPI_File_open",
                () -> new File(world, path, MPI.MODE_RDWR | MPI.MODE_SEQUENTIAL));
        c.expectError("a directory", MPI.ERR_BAD_FILE, "MPI_File_open",
                () -> new File(world, dir.toString(), MPI.MODE_RDONLY));
        c.expectError("different access modes on different ranks", MPI.ERR_NOT_SAME,
                "MPI_File_open", () -> new File(world, path, MPI.MODE_CREATE
                        | (rank == 0 ? MPI.MODE_RDWR : MPI.MODE_WRONLY)));
        File f = new File(world, path, MPI.MODE_CREATE | MPI.MODE_WRONLY);
        f.write(new byte[] {1, 2, 3}, 3, MPI.BYTE);
        c.expectError("read a write-only file", MPI.ERR_ACCESS, "MPI_File_read_at",
                () -> f.readAt(0, new byte[1], 1, MPI.BYTE));
        c.expectError("unknown data representation", MPI.ERR_UNSUPPORTED_DATAREP,
                "MPI_File_set_view", () -> f.setView(0, MPI.BYTE, MPI.BYTE, "xdr"));
        Datatype odd = Datatype.createContiguous(3, MPI.BYTE);
        odd.commit();
        c.expectError("filetype not made of etypes", MPI.ERR_TYPE, "MPI_File_set_view",
                () -> f.setView(0, MPI.INT, odd, "native"));
        c.expectError("negative displacement", MPI.ERR_ARG, "MPI_File_set_view",
                () -> f.setView(-8, MPI.BYTE, MPI.BYTE, "native"));
        c.expectError("seek before the start", MPI.ERR_ARG, "MPI_File_seek",
                () -> f.seek(-1, MPI.SEEK_SET));
        c.expectError("bad whence", MPI.ERR_ARG, "MPI_File_seek", () -> f.seek(0, 12345));
        c.expectError("negative count", MPI.ERR_COUNT, "MPI_File_write_at",
                () -> f.writeAt(0, new byte[1], -1, MPI.BYTE));
        c.expectError("buffer too small", MPI.ERR_BUFFER, "MPI_File_write_at",
                () -> f.writeAt(0, new int[1], 2, MPI.INT));
        c.expectError("negative offset", MPI.ERR_ARG, "MPI_File_write_at",
                () -> f.writeAt(-1, new byte[1], 1, MPI.BYTE));
        c.expectError("end without begin", MPI.ERR_OTHER, "MPI_File_write_all_end",
                () -> f.writeAllEnd(new byte[1]));
        byte[] one = new byte[1];
        f.writeAllBegin(one, 1, MPI.BYTE);
        c.expectError("two split collectives at once", MPI.ERR_OTHER, "MPI_File_write_all_begin",
                () -> f.writeAllBegin(one, 1, MPI.BYTE));
        c.expectError("end of another kind", MPI.ERR_OTHER, "MPI_File_read_all_end",
                () -> f.readAllEnd(one));
        f.writeAllEnd(one);
        try {
            f.iWrite(java.nio.ByteBuffer.allocate(4), 4, MPI.BYTE);
            c.fail("heap buffer to iWrite", "accepted");
        } catch (IllegalArgumentException e) {
            c.pass("heap buffer to iWrite: IllegalArgumentException");
        }
        f.callErrhandler(MPI.ERR_IO);
        c.pass("callErrhandler returns under ERRORS_RETURN");
        c.equal("a null buffer with count 0 writes nothing", 0,
                f.write(null, 0, MPI.BYTE).getCount(MPI.BYTE));
        f.close();
        c.expectError("call on a closed file", MPI.ERR_FILE, "MPI_File_get_size", f::getSize);
        c.expectError("close twice", MPI.ERR_FILE, "MPI_File_close", f::close);
        c.expectError("EXCL on an existing file", MPI.ERR_FILE_EXISTS, "MPI_File_open",
                () -> new File(world, path, MPI.MODE_CREATE | MPI.MODE_EXCL | MPI.MODE_WRONLY));
        File ro = new File(world, path, MPI.MODE_RDONLY);
        c.expectError("write a read-only file", MPI.ERR_READ_ONLY, "MPI_File_write",
                () -> ro.write(new byte[1], 1, MPI.BYTE));
        c.expectError("set the size of a read-only file", MPI.ERR_READ_ONLY,
                "MPI_File_set_size", () -> ro.setSize(0));
        byte[] eight = new byte[8];
        c.equal("read past the end is no error: 4 of 8 (3 written, then 1 by writeAll)", 4,
                ro.readAt(0, eight, 8, MPI.BYTE).getCount(MPI.BYTE));
        ro.close();
        File seq = new File(world, path, MPI.MODE_WRONLY | MPI.MODE_SEQUENTIAL);
        c.expectError("individual pointer with MODE_SEQUENTIAL", MPI.ERR_UNSUPPORTED_OPERATION,
                "MPI_File_write", () -> seq.write(new byte[1], 1, MPI.BYTE));
        seq.close();
        world.barrier();
        if (rank == 0) {
            File.delete(path);
            c.expectError("delete a missing file", MPI.ERR_NO_SUCH_FILE, "MPI_File_delete",
                    () -> File.delete(missing));
        }
        File fatal = new File(world, dir.resolve("fatal").toString(), MPI.MODE_CREATE
                | MPI.MODE_RDWR | MPI.MODE_DELETE_ON_CLOSE);
        fatal.setErrhandler(MPI.ERRORS_ARE_FATAL);
        c.equal("error handler set", MPI.ERRORS_ARE_FATAL, fatal.getErrhandler());
        fatal.close();
        world.barrier();
        MPI.Finalize();
        System.exit(c.summary());
    }

}
