package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.io.IoBuffer;

/**
 * The argument checks of {@link File}: access modes (MPI-3.1 13.2.1), buffers, counts and types,
 * and info objects as maps. A failed check throws before anything is read or written.
 */
final class FileArgs {
    private FileArgs() {
    }

    /** A resolved buffer: what the io module sees, and what to run after a read (boolean[]). */
    record Resolved(IoBuffer io, Runnable copyBack) {
    }

    /**
     * Checks {@code amode}: exactly one of RDONLY, WRONLY and RDWR; no CREATE or EXCL with
     * RDONLY; no SEQUENTIAL with RDWR; no unknown bits (MPI_ERR_AMODE).
     */
    static void checkAmode(int amode) throws MPIException {
        int all = MPI.MODE_CREATE | MPI.MODE_RDONLY | MPI.MODE_WRONLY | MPI.MODE_RDWR
                | MPI.MODE_DELETE_ON_CLOSE | MPI.MODE_UNIQUE_OPEN | MPI.MODE_EXCL
                | MPI.MODE_APPEND | MPI.MODE_SEQUENTIAL;
        int rw = Integer.bitCount(amode & (MPI.MODE_RDONLY | MPI.MODE_WRONLY | MPI.MODE_RDWR));
        String why = null;
        if ((amode & ~all) != 0) {
            why = "unknown bits 0x" + Integer.toHexString(amode & ~all) + " in amode";
        } else if (rw != 1) {
            why = "amode needs exactly one of MODE_RDONLY, MODE_WRONLY and MODE_RDWR";
        } else if ((amode & MPI.MODE_RDONLY) != 0
                && (amode & (MPI.MODE_CREATE | MPI.MODE_EXCL)) != 0) {
            why = "MODE_RDONLY with MODE_CREATE or MODE_EXCL";
        } else if ((amode & MPI.MODE_RDWR) != 0 && (amode & MPI.MODE_SEQUENTIAL) != 0) {
            why = "MODE_RDWR with MODE_SEQUENTIAL";
        }
        if (why != null) {
            throw MPIException.of(ErrorClass.ERR_AMODE, why);
        }
    }

    static void checkCountType(int count, Datatype type) throws MPIException {
        if (count < 0) {
            throw MPIException.of(ErrorClass.ERR_COUNT, "negative count " + count);
        }
        if (type == null) {
            throw MPIException.of(ErrorClass.ERR_TYPE, "datatype is null");
        }
        type.check();
    }

    /** The memory a write reads from. A null buffer is valid with count 0. */
    static Resolved forWrite(Object buf, int count, Datatype type) throws MPIException {
        checkCountType(count, type);
        if (buf == null && count == 0) {
            return empty(type);
        }
        LayoutBuffers.Resolved r = LayoutBuffers.forSend(buf, count, type);
        return new Resolved(new IoBuffer(r.base(), r.shape()), null);
    }

    /** The memory a read writes into. A null buffer is valid with count 0. */
    static Resolved forRead(Object buf, int count, Datatype type) throws MPIException {
        checkCountType(count, type);
        if (buf == null && count == 0) {
            return empty(type);
        }
        LayoutBuffers.Resolved r = LayoutBuffers.forReceive(buf, count, type);
        return new Resolved(new IoBuffer(r.base(), r.shape()), r.copyBack());
    }

    private static Resolved empty(Datatype type) {
        return new Resolved(new IoBuffer(MemorySegment.NULL, type.shape(0)), null);
    }

    /** Nonblocking calls take direct buffers only, as Open MPI's bindings. */
    static void checkDirect(Buffer buf, int count) {
        if (buf == null ? count != 0 : !buf.isDirect()) {
            throw new IllegalArgumentException("The buffer must be direct.");
        }
    }

    static Map<String, String> map(Info info) throws MPIException {
        Map<String, String> m = new LinkedHashMap<>();
        if (info != null && !info.isNull()) {
            for (int i = 0; i < info.size(); i++) {
                String k = info.getKey(i);
                m.put(k, info.get(k));
            }
        } else if (info != null && info != MPI.INFO_NULL) {
            throw MPIException.of(ErrorClass.ERR_INFO, "info has been freed");
        }
        return m;
    }

    static Info info(Map<String, String> m) throws MPIException {
        Info info = new Info();
        for (Map.Entry<String, String> e : m.entrySet()) {
            info.set(e.getKey(), e.getValue());
        }
        return info;
    }
}
