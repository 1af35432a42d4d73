package org.verbatim.runtime.base;

/**
 * The MPI error classes with Open MPI's values (the {@code MPI.ERR_*} constants are assigned from
 * here), and their standard error strings.
 */
public final class ErrorClass {
    public static final int SUCCESS = 0, ERR_BUFFER = 1, ERR_COUNT = 2, ERR_TYPE = 3, ERR_TAG = 4,
            ERR_COMM = 5, ERR_RANK = 6, ERR_REQUEST = 7, ERR_ROOT = 8, ERR_GROUP = 9, ERR_OP = 10,
            ERR_TOPOLOGY = 11, ERR_DIMS = 12, ERR_ARG = 13, ERR_UNKNOWN = 14, ERR_TRUNCATE = 15,
            ERR_OTHER = 16, ERR_INTERN = 17, ERR_IN_STATUS = 18, ERR_PENDING = 19, ERR_ACCESS = 20,
            ERR_AMODE = 21, ERR_ASSERT = 22, ERR_BAD_FILE = 23, ERR_BASE = 24, ERR_CONVERSION = 25,
            ERR_DISP = 26, ERR_DUP_DATAREP = 27, ERR_FILE_EXISTS = 28, ERR_FILE_IN_USE = 29,
            ERR_FILE = 30, ERR_INFO_KEY = 31, ERR_INFO_NOKEY = 32, ERR_INFO_VALUE = 33, ERR_INFO = 34,
            ERR_IO = 35, ERR_KEYVAL = 36, ERR_LOCKTYPE = 37, ERR_NAME = 38, ERR_NO_MEM = 39,
            ERR_NOT_SAME = 40, ERR_NO_SPACE = 41, ERR_NO_SUCH_FILE = 42, ERR_PORT = 43,
            ERR_QUOTA = 44, ERR_READ_ONLY = 45, ERR_RMA_CONFLICT = 46, ERR_RMA_SYNC = 47,
            ERR_SERVICE = 48, ERR_SIZE = 49, ERR_SPAWN = 50, ERR_UNSUPPORTED_DATAREP = 51,
            ERR_UNSUPPORTED_OPERATION = 52, ERR_WIN = 53, ERR_RMA_RANGE = 68, ERR_RMA_ATTACH = 69,
            ERR_RMA_FLAVOR = 70, ERR_RMA_SHARED = 71, ERR_PROC_ABORTED = 74, ERR_LASTCODE = 92;

    private ErrorClass() {
    }

    /** The standard string of an error class (MPI_Error_string). */
    public static String describe(int errorClass) {
        return switch (errorClass) {
            case SUCCESS -> "MPI_SUCCESS: no errors";
            case ERR_BUFFER -> "MPI_ERR_BUFFER: invalid buffer pointer";
            case ERR_COUNT -> "MPI_ERR_COUNT: invalid count argument";
            case ERR_TYPE -> "MPI_ERR_TYPE: invalid datatype";
            case ERR_TAG -> "MPI_ERR_TAG: invalid tag";
            case ERR_COMM -> "MPI_ERR_COMM: invalid communicator";
            case ERR_RANK -> "MPI_ERR_RANK: invalid rank";
            case ERR_REQUEST -> "MPI_ERR_REQUEST: invalid request";
            case ERR_ROOT -> "MPI_ERR_ROOT: invalid root";
            case ERR_GROUP -> "MPI_ERR_GROUP: invalid group";
            case ERR_OP -> "MPI_ERR_OP: invalid reduce operation";
            case ERR_TOPOLOGY -> "MPI_ERR_TOPOLOGY: invalid communicator topology";
            case ERR_DIMS -> "MPI_ERR_DIMS: invalid topology dimension";
            case ERR_ARG -> "MPI_ERR_ARG: invalid argument of some other kind";
            case ERR_UNKNOWN -> "MPI_ERR_UNKNOWN: unknown error";
            case ERR_TRUNCATE -> "MPI_ERR_TRUNCATE: message truncated";
            case ERR_OTHER -> "MPI_ERR_OTHER: known error not in list";
            case ERR_INTERN -> "MPI_ERR_INTERN: internal error";
            case ERR_IN_STATUS -> "MPI_ERR_IN_STATUS: error code is in status";
            case ERR_PENDING -> "MPI_ERR_PENDING: pending request";
            case ERR_KEYVAL -> "MPI_ERR_KEYVAL: invalid key value";
            case ERR_NO_MEM -> "MPI_ERR_NO_MEM: out of memory";
            case ERR_NOT_SAME -> "MPI_ERR_NOT_SAME: objects are not identical";
            case ERR_INFO_KEY -> "MPI_ERR_INFO_KEY: invalid info key";
            case ERR_INFO_VALUE -> "MPI_ERR_INFO_VALUE: invalid info value";
            case ERR_INFO_NOKEY -> "MPI_ERR_INFO_NOKEY: unknown info key";
            case ERR_SIZE -> "MPI_ERR_SIZE: invalid size";
            case ERR_WIN -> "MPI_ERR_WIN: invalid window";
            case ERR_BASE -> "MPI_ERR_BASE: invalid base";
            case ERR_DISP -> "MPI_ERR_DISP: invalid displacement";
            case ERR_LOCKTYPE -> "MPI_ERR_LOCKTYPE: invalid lock";
            case ERR_ASSERT -> "MPI_ERR_ASSERT: invalid assert";
            case ERR_RMA_CONFLICT -> "MPI_ERR_RMA_CONFLICT: conflicting accesses to window";
            case ERR_RMA_SYNC -> "MPI_ERR_RMA_SYNC: erroneous RMA synchronization";
            case ERR_RMA_RANGE -> "MPI_ERR_RMA_RANGE: invalid RMA address range";
            case ERR_RMA_ATTACH -> "MPI_ERR_RMA_ATTACH: Could not attach RMA segment";
            case ERR_RMA_FLAVOR -> "MPI_ERR_RMA_FLAVOR: Invalid type of window";
            case ERR_RMA_SHARED -> "MPI_ERR_RMA_SHARED: Memory cannot be shared";
            case ERR_UNSUPPORTED_OPERATION -> "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported";
            case ERR_PROC_ABORTED -> "MPI_ERR_PROC_ABORTED: process aborted";
            default -> "MPI error class " + errorClass;
        };
    }
}
