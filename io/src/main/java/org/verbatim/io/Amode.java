package org.verbatim.io;

/** The MPI.MODE_* bits of MPI_File_open (Open MPI's values), as the io module reads them. */
final class Amode {
    static final int CREATE = 1, RDONLY = 2, WRONLY = 4, RDWR = 8, DELETE_ON_CLOSE = 16,
            UNIQUE_OPEN = 32, EXCL = 64, APPEND = 128, SEQUENTIAL = 256;

    private Amode() {
    }

    static boolean has(int amode, int bit) {
        return (amode & bit) != 0;
    }
}
