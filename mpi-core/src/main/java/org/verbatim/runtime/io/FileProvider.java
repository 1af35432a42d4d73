package org.verbatim.runtime.io;

import java.util.Map;

/**
 * Opens and deletes files for MPI-IO: the service behind {@code mpi.File}, offered by a runtime
 * extension (the io module) and found by {@code MpiProcess.extension(FileProvider.class)}.
 * Without one, every file call fails with MPI_ERR_UNSUPPORTED_OPERATION.
 *
 * <p>Errors are thrown as {@link org.verbatim.runtime.base.MpiError} with their MPI error class.
 */
public interface FileProvider {
    /**
     * MPI_File_open, collective over {@code group}: {@code amode} is the MPI.MODE_* bits (already
     * checked for consistency by the API layer); every member gets the same outcome.
     */
    IoFile open(FileGroup group, String path, int amode, Map<String, String> info);

    /** MPI_File_delete (not collective): MPI_ERR_NO_SUCH_FILE when there is no such file. */
    void delete(String path, Map<String, String> info);
}
