package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.verbatim.bootstrap.Bootstrap;
import org.verbatim.bootstrap.Bootstraps;
import org.verbatim.config.ConfigSource;
import org.verbatim.runtime.BaseType;
import org.verbatim.runtime.Engine;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.MpiProcess;
import org.verbatim.runtime.op.OpCode;

/**
 * The MPI environment: constants, predefined objects, Init and Finalize. This facade holds the
 * only static state of Verbatim: the process started by Init.
 */
public final class MPI {
    public static final Intracomm COMM_WORLD = new Intracomm();
    public static final Intracomm COMM_SELF = new Intracomm();

    public static final int THREAD_SINGLE, THREAD_FUNNELED, THREAD_SERIALIZED, THREAD_MULTIPLE;
    public static final int CART, GRAPH, DIST_GRAPH;
    public static final int ANY_SOURCE, ANY_TAG, PROC_NULL, ROOT, UNDEFINED;
    public static final int IDENT, CONGRUENT, SIMILAR, UNEQUAL;
    public static final int TAG_UB, HOST, IO, WTIME_IS_GLOBAL, APPNUM, LASTUSEDCODE,
            UNIVERSE_SIZE, WIN_BASE, WIN_SIZE, WIN_DISP_UNIT, WIN_CREATE_FLAVOR, WIN_MODEL;
    /** Values of the WIN_CREATE_FLAVOR and WIN_MODEL window attributes (Open MPI's). */
    public static final int WIN_FLAVOR_CREATE, WIN_FLAVOR_ALLOCATE, WIN_FLAVOR_DYNAMIC,
            WIN_FLAVOR_SHARED, WIN_SEPARATE, WIN_UNIFIED;
    public static final int VERSION, SUBVERSION;
    public static final int KEYVAL_INVALID, BSEND_OVERHEAD;
    public static final int MAX_OBJECT_NAME, MAX_PORT_NAME, MAX_DATAREP_STRING, MAX_INFO_KEY,
            MAX_INFO_VAL;
    public static final int ORDER_C, ORDER_FORTRAN;
    /** Verbatim extension: the combiners of {@link Datatype#getEnvelope()} (Open MPI's values). */
    public static final int COMBINER_NAMED = 0, COMBINER_DUP = 1, COMBINER_CONTIGUOUS = 2,
            COMBINER_VECTOR = 3, COMBINER_HVECTOR = 5, COMBINER_INDEXED = 6,
            COMBINER_HINDEXED = 8, COMBINER_INDEXED_BLOCK = 9, COMBINER_STRUCT = 11,
            COMBINER_SUBARRAY = 12, COMBINER_DARRAY = 13, COMBINER_RESIZED = 17,
            COMBINER_HINDEXED_BLOCK = 18;
    public static final int DISTRIBUTE_BLOCK, DISTRIBUTE_CYCLIC, DISTRIBUTE_NONE,
            DISTRIBUTE_DFLT_DARG;
    public static final int MODE_CREATE, MODE_RDONLY, MODE_WRONLY, MODE_RDWR,
            MODE_DELETE_ON_CLOSE, MODE_UNIQUE_OPEN, MODE_EXCL, MODE_APPEND, MODE_SEQUENTIAL;
    public static final int DISPLACEMENT_CURRENT, SEEK_SET, SEEK_CUR, SEEK_END;
    public static final int MODE_NOCHECK, MODE_NOPRECEDE, MODE_NOPUT, MODE_NOSTORE,
            MODE_NOSUCCEED;
    public static final int LOCK_EXCLUSIVE, LOCK_SHARED;

    public static final Datatype DATATYPE_NULL, BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT,
            DOUBLE, PACKED, FLOAT_COMPLEX, DOUBLE_COMPLEX, INT2, SHORT_INT, LONG_INT, FLOAT_INT,
            DOUBLE_INT;

    public static final Op MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MINLOC, MAXLOC,
            REPLACE, NO_OP;
    /** Struct accessors for the INT2 ... DOUBLE_INT layouts. */
    public static final Int2 int2;
    public static final ShortInt shortInt;
    public static final LongInt longInt;
    public static final FloatInt floatInt;
    public static final DoubleInt doubleInt;

    public static final Request REQUEST_NULL;
    public static final Group GROUP_EMPTY = Group.empty();
    public static final Info INFO_ENV = Info.environment();
    public static final Info INFO_NULL = Info.nullInfo();
    public static final Errhandler ERRORS_ARE_FATAL, ERRORS_ABORT, ERRORS_RETURN;

    public static final int SUCCESS, ERR_BUFFER, ERR_COUNT, ERR_TYPE, ERR_TAG, ERR_COMM,
            ERR_RANK, ERR_REQUEST, ERR_ROOT, ERR_GROUP, ERR_OP, ERR_TOPOLOGY, ERR_DIMS, ERR_ARG,
            ERR_UNKNOWN, ERR_TRUNCATE, ERR_OTHER, ERR_INTERN, ERR_IN_STATUS, ERR_PENDING,
            ERR_ACCESS, ERR_AMODE, ERR_ASSERT, ERR_BAD_FILE, ERR_BASE, ERR_CONVERSION, ERR_DISP,
            ERR_DUP_DATAREP, ERR_FILE_EXISTS, ERR_FILE_IN_USE, ERR_FILE, ERR_INFO_KEY,
            ERR_INFO_NOKEY, ERR_INFO_VALUE, ERR_INFO, ERR_IO, ERR_KEYVAL, ERR_LOCKTYPE, ERR_NAME,
            ERR_NO_MEM, ERR_NOT_SAME, ERR_NO_SPACE, ERR_NO_SUCH_FILE, ERR_PORT, ERR_QUOTA,
            ERR_READ_ONLY, ERR_RMA_CONFLICT, ERR_RMA_SYNC, ERR_SERVICE, ERR_SIZE, ERR_SPAWN,
            ERR_UNSUPPORTED_DATAREP, ERR_UNSUPPORTED_OPERATION, ERR_WIN, ERR_RMA_RANGE,
            ERR_RMA_ATTACH, ERR_RMA_FLAVOR, ERR_RMA_SHARED, ERR_PROC_ABORTED, ERR_LASTCODE;
    /** Declared by the reference but never assigned there: always 0. */
    public static int ERR_SYSRESOURCE;

    /** The value of the TAG_UB attribute: the largest valid tag. */
    static final int TAG_UB_VALUE = Integer.MAX_VALUE - 0xffff;

    static {
        THREAD_SINGLE = 0; THREAD_FUNNELED = 1; THREAD_SERIALIZED = 2; THREAD_MULTIPLE = 3;
        CART = 1; GRAPH = 2; DIST_GRAPH = 3;
        ANY_SOURCE = Engine.ANY_SOURCE; ANY_TAG = Engine.ANY_TAG; PROC_NULL = -2; ROOT = -4;
        UNDEFINED = -32766;
        IDENT = 0; CONGRUENT = 1; SIMILAR = 2; UNEQUAL = 3;
        TAG_UB = 0; HOST = 1; IO = 2; WTIME_IS_GLOBAL = 3; APPNUM = 4; LASTUSEDCODE = 5;
        UNIVERSE_SIZE = 6; WIN_BASE = 7; WIN_SIZE = 8; WIN_DISP_UNIT = 9;
        WIN_CREATE_FLAVOR = 10; WIN_MODEL = 11;
        WIN_FLAVOR_CREATE = 1; WIN_FLAVOR_ALLOCATE = 2; WIN_FLAVOR_DYNAMIC = 3; WIN_FLAVOR_SHARED = 4;
        WIN_SEPARATE = 1; WIN_UNIFIED = 2;
        VERSION = 3; SUBVERSION = 1;
        KEYVAL_INVALID = -1; BSEND_OVERHEAD = 128;
        MAX_OBJECT_NAME = 64; MAX_PORT_NAME = 1024; MAX_DATAREP_STRING = 128; MAX_INFO_KEY = 36;
        MAX_INFO_VAL = 256;
        ORDER_C = 0; ORDER_FORTRAN = 1;
        DISTRIBUTE_BLOCK = 0; DISTRIBUTE_CYCLIC = 1; DISTRIBUTE_NONE = 2; DISTRIBUTE_DFLT_DARG = -1;
        MODE_CREATE = 1; MODE_RDONLY = 2; MODE_WRONLY = 4; MODE_RDWR = 8;
        MODE_DELETE_ON_CLOSE = 16; MODE_UNIQUE_OPEN = 32; MODE_EXCL = 64; MODE_APPEND = 128;
        MODE_SEQUENTIAL = 256;
        DISPLACEMENT_CURRENT = -54278278; SEEK_SET = 600; SEEK_CUR = 602; SEEK_END = 604;
        MODE_NOCHECK = 1; MODE_NOPRECEDE = 2; MODE_NOPUT = 4; MODE_NOSTORE = 8;
        MODE_NOSUCCEED = 16;
        LOCK_EXCLUSIVE = 1; LOCK_SHARED = 2;

        DATATYPE_NULL = new Datatype("MPI_DATATYPE_NULL", BaseType.BYTE, 0, true);
        BYTE = new Datatype("MPI_BYTE", BaseType.BYTE, 1, false);
        CHAR = new Datatype("MPI_CHAR", BaseType.CHAR, 2, false);
        SHORT = new Datatype("MPI_SHORT", BaseType.SHORT, 2, false);
        BOOLEAN = new Datatype("MPI_BOOLEAN", BaseType.BOOLEAN, 1, false);
        INT = new Datatype("MPI_INT", BaseType.INT, 4, false);
        LONG = new Datatype("MPI_LONG", BaseType.LONG, 8, false);
        FLOAT = new Datatype("MPI_FLOAT", BaseType.FLOAT, 4, false);
        DOUBLE = new Datatype("MPI_DOUBLE", BaseType.DOUBLE, 8, false);
        PACKED = new Datatype("MPI_PACKED", BaseType.BYTE, 1, false);
        FLOAT_COMPLEX = new Datatype("MPI_C_FLOAT_COMPLEX", BaseType.FLOAT, 8, false);
        DOUBLE_COMPLEX = new Datatype("MPI_C_DOUBLE_COMPLEX", BaseType.DOUBLE, 16, false);
        INT2 = new Datatype("MPI_2INT", BaseType.BYTE, 8, false);
        SHORT_INT = new Datatype("MPI_SHORT_INT", BaseType.BYTE, 8, false);
        LONG_INT = new Datatype("MPI_LONG_INT", BaseType.BYTE, 16, false);
        FLOAT_INT = new Datatype("MPI_FLOAT_INT", BaseType.BYTE, 8, false);
        DOUBLE_INT = new Datatype("MPI_DOUBLE_INT", BaseType.BYTE, 16, false);
        int2 = new Int2();
        shortInt = new ShortInt();
        longInt = new LongInt();
        floatInt = new FloatInt();
        doubleInt = new DoubleInt();

        MAX = new Op(OpCode.MAX); MIN = new Op(OpCode.MIN); SUM = new Op(OpCode.SUM);
        PROD = new Op(OpCode.PROD); LAND = new Op(OpCode.LAND); BAND = new Op(OpCode.BAND);
        LOR = new Op(OpCode.LOR); BOR = new Op(OpCode.BOR); LXOR = new Op(OpCode.LXOR);
        BXOR = new Op(OpCode.BXOR); MINLOC = new Op(OpCode.MINLOC); MAXLOC = new Op(OpCode.MAXLOC);
        REPLACE = new Op(OpCode.REPLACE); NO_OP = new Op(OpCode.NO_OP);

        REQUEST_NULL = Request.nullRequest();
        ERRORS_ARE_FATAL = new Errhandler(true, "MPI_ERRORS_ARE_FATAL");
        ERRORS_ABORT = new Errhandler(true, "MPI_ERRORS_ABORT");
        ERRORS_RETURN = new Errhandler(false, "MPI_ERRORS_RETURN");

        SUCCESS = ErrorClass.SUCCESS; ERR_BUFFER = ErrorClass.ERR_BUFFER;
        ERR_COUNT = ErrorClass.ERR_COUNT; ERR_TYPE = ErrorClass.ERR_TYPE;
        ERR_TAG = ErrorClass.ERR_TAG; ERR_COMM = ErrorClass.ERR_COMM;
        ERR_RANK = ErrorClass.ERR_RANK; ERR_REQUEST = ErrorClass.ERR_REQUEST;
        ERR_ROOT = ErrorClass.ERR_ROOT; ERR_GROUP = ErrorClass.ERR_GROUP;
        ERR_OP = ErrorClass.ERR_OP; ERR_TOPOLOGY = ErrorClass.ERR_TOPOLOGY;
        ERR_DIMS = ErrorClass.ERR_DIMS; ERR_ARG = ErrorClass.ERR_ARG;
        ERR_UNKNOWN = ErrorClass.ERR_UNKNOWN; ERR_TRUNCATE = ErrorClass.ERR_TRUNCATE;
        ERR_OTHER = ErrorClass.ERR_OTHER; ERR_INTERN = ErrorClass.ERR_INTERN;
        ERR_IN_STATUS = ErrorClass.ERR_IN_STATUS; ERR_PENDING = ErrorClass.ERR_PENDING;
        ERR_ACCESS = ErrorClass.ERR_ACCESS; ERR_AMODE = ErrorClass.ERR_AMODE;
        ERR_ASSERT = ErrorClass.ERR_ASSERT; ERR_BAD_FILE = ErrorClass.ERR_BAD_FILE;
        ERR_BASE = ErrorClass.ERR_BASE; ERR_CONVERSION = ErrorClass.ERR_CONVERSION;
        ERR_DISP = ErrorClass.ERR_DISP; ERR_DUP_DATAREP = ErrorClass.ERR_DUP_DATAREP;
        ERR_FILE_EXISTS = ErrorClass.ERR_FILE_EXISTS; ERR_FILE_IN_USE = ErrorClass.ERR_FILE_IN_USE;
        ERR_FILE = ErrorClass.ERR_FILE; ERR_INFO_KEY = ErrorClass.ERR_INFO_KEY;
        ERR_INFO_NOKEY = ErrorClass.ERR_INFO_NOKEY; ERR_INFO_VALUE = ErrorClass.ERR_INFO_VALUE;
        ERR_INFO = ErrorClass.ERR_INFO; ERR_IO = ErrorClass.ERR_IO;
        ERR_KEYVAL = ErrorClass.ERR_KEYVAL; ERR_LOCKTYPE = ErrorClass.ERR_LOCKTYPE;
        ERR_NAME = ErrorClass.ERR_NAME; ERR_NO_MEM = ErrorClass.ERR_NO_MEM;
        ERR_NOT_SAME = ErrorClass.ERR_NOT_SAME; ERR_NO_SPACE = ErrorClass.ERR_NO_SPACE;
        ERR_NO_SUCH_FILE = ErrorClass.ERR_NO_SUCH_FILE; ERR_PORT = ErrorClass.ERR_PORT;
        ERR_QUOTA = ErrorClass.ERR_QUOTA; ERR_READ_ONLY = ErrorClass.ERR_READ_ONLY;
        ERR_RMA_CONFLICT = ErrorClass.ERR_RMA_CONFLICT; ERR_RMA_SYNC = ErrorClass.ERR_RMA_SYNC;
        ERR_SERVICE = ErrorClass.ERR_SERVICE; ERR_SIZE = ErrorClass.ERR_SIZE;
        ERR_SPAWN = ErrorClass.ERR_SPAWN; ERR_UNSUPPORTED_DATAREP = ErrorClass.ERR_UNSUPPORTED_DATAREP;
        ERR_UNSUPPORTED_OPERATION = ErrorClass.ERR_UNSUPPORTED_OPERATION;
        ERR_WIN = ErrorClass.ERR_WIN;
        ERR_RMA_RANGE = ErrorClass.ERR_RMA_RANGE; ERR_RMA_ATTACH = ErrorClass.ERR_RMA_ATTACH;
        ERR_RMA_FLAVOR = ErrorClass.ERR_RMA_FLAVOR; ERR_RMA_SHARED = ErrorClass.ERR_RMA_SHARED;
        ERR_PROC_ABORTED = ErrorClass.ERR_PROC_ABORTED;
        ERR_LASTCODE = ErrorClass.ERR_LASTCODE;
    }

    // ------------------------------------------------------------------ the one static state
    private static final Object LIFECYCLE = new Object();
    private static volatile MpiProcess process;
    private static String[] initArgs;
    private static volatile boolean finalized;
    private static byte[] attached;
    private static long attachedInUse;

    /** The class holds only static members; the constructor exists for source compatibility. */
    public MPI() {
    }

    /** The inter-communicator to the parents of a spawned world, else null. */
    static Intercomm parent;

    static MpiProcess process() throws MPIException {
        check();
        return process;
    }

    /** The process between Init and Finalize, else null (no check, no exception). */
    static MpiProcess processOrNull() {
        return process;
    }

    /** True between Init and Finalize. */
    static boolean initialized() {
        return process != null;
    }

    /** Throws unless MPI is initialised and not finalised. */
    /** The program's arguments as given to Init (INFO_ENV's argv), or null. */
    static String[] initArgs() {
        return initArgs;
    }

    static void check() throws MPIException {
        if (process == null) {
            throw MPIException.of(ERR_OTHER, finalized ? "MPI is finalized."
                    : "MPI is not initialized.");
        }
    }

    /**
     * Starts MPI in this process: connects to the launcher, opens the transports and checks the
     * configuration; returns the arguments (MPI_Init).
     */
    public static String[] Init(String[] args) throws MPIException {
        InitThread(args, THREAD_SINGLE);
        return args;
    }

    /**
     * As {@link #Init}, asking for thread support {@code required} ({@link #THREAD_SINGLE} to
     * {@link #THREAD_MULTIPLE}); returns the level provided (MPI_Init_thread).
     */
    public static int InitThread(String[] args, int required) throws MPIException {
        synchronized (LIFECYCLE) {
            if (process != null || finalized) {
                throw MPIException.of(ERR_OTHER, finalized ? "MPI is finalized."
                        : "MPI is already initialized.");
            }
            if (required < THREAD_SINGLE || required > THREAD_MULTIPLE) {
                throw MPIException.of(ERR_ARG, "MPI_Init_thread: invalid thread level " + required);
            }
            Bootstrap bootstrap = Bootstraps.fromEnvironment();
            java.util.Map<String, String> config = StartupChecks.configuration(bootstrap);
            MpiProcess p;
            try {
                p = MpiProcess.start(bootstrap, config, required);
            } catch (MpiError | org.verbatim.config.ConfigException e) {
                // the bootstrap prints the one line; the process manager then ends every rank
                bootstrap.abort(1, "MPI_Init: " + e.getMessage());
                Runtime.getRuntime().halt(1);
                throw new AssertionError("halted");
            }
            bindPredefined(p);
            initArgs = args == null ? null : args.clone();
            process = p;
            parent = Spawn.connectToParents();
            HotPathWarmup.runIfWanted(p);
            return required;
        }
    }

    /** Starts MPI on an existing bootstrap (in-JVM tests run several ranks this way). */
    static void bindPredefined(MpiProcess p) {
        int[] world = new int[p.size()];
        for (int i = 0; i < world.length; i++) {
            world[i] = i;
        }
        COMM_WORLD.bind(p, 0, world, p.rank(), "MPI_COMM_WORLD");
        COMM_WORLD.errhandler = ERRORS_ARE_FATAL;
        COMM_SELF.bind(p, 2, new int[] {p.rank()}, 0, "MPI_COMM_SELF");
        COMM_SELF.errhandler = ERRORS_ARE_FATAL;
    }

    /** The thread support level provided at initialization (MPI_Query_thread). */
    public static int queryThread() throws MPIException {
        return process().threadLevel();
    }

    /** True if the calling thread is the one that initialized MPI (MPI_Is_thread_main). */
    public static boolean isThreadMain() throws MPIException {
        return process().mainThread() == Thread.currentThread();
    }

    /** Ends MPI in this process after a barrier of every rank; the last MPI call (MPI_Finalize). */
    public static void Finalize() throws MPIException {
        synchronized (LIFECYCLE) {
            MpiProcess p = process();
            try {
                org.verbatim.runtime.Agreement.barrier(p.engine(), COMM_WORLD.collectiveContext(),
                        COMM_WORLD.world, COMM_WORLD.rank);
                if (p.profiler().enabled()) {
                    if (org.verbatim.runtime.CoreSettings.PROFILE_RANKS.getBoolean(p.config())) {
                        System.err.print(Profiles.report(p)
                                + org.verbatim.runtime.ProfileReport.rankLines(p));
                    }
                    String report = org.verbatim.runtime.ProfileReport.combine(p,
                            COMM_WORLD.collectiveContext(), COMM_WORLD.world, COMM_WORLD.rank);
                    if (report != null) {
                        System.err.print(report);
                    }
                }
                Ports.closeAll();
                parent = null;
                p.close();
            } catch (MpiError e) {
                COMM_WORLD.raise("MPI_Finalize", e);
            } finally {
                process = null;
                finalized = true;
            }
        }
    }

    /** True once {@link #Init} has run, also after {@link #Finalize} (MPI_Initialized). */
    public static boolean isInitialized() throws MPIException {
        return process != null || finalized;
    }

    /** True once {@link #Finalize} has run (MPI_Finalized). */
    public static boolean isFinalized() throws MPIException {
        return finalized;
    }

    /** Elapsed wall-clock time in seconds from an arbitrary origin (MPI_Wtime). */
    public static double wtime() throws MPIException {
        check();
        return System.nanoTime() / 1e9;
    }

    /** The resolution of {@link #wtime} in seconds (MPI_Wtick). */
    public static double wtick() throws MPIException {
        check();
        return 1e-9;
    }

    /** The version of the MPI standard this library implements (MPI_Get_version). */
    public static Version getVersion() {
        return new Version(3, 1);
    }

    /** This library's name and version (MPI_Get_library_version). */
    public static String getLibVersion() {
        return "Verbatim " + MPI.class.getPackage().getImplementationVersion()
                + " (pure Java MPI, Open MPI Java API)";
    }

    /** The name of the host this process runs on (MPI_Get_processor_name). */
    public static String getProcessorName() throws MPIException {
        MpiProcess p = process();
        String h = p.host(p.rank());
        return h.length() > 256 ? h.substring(0, 256) : h;
    }

    /** Profiling control (MPI_Pcontrol); no profiling layer listens, so it does nothing. */
    public static void pControl(int level, Object obj) {
    }

    // ------------------------------------------------------------------ buffered sends

    /**
     * Attaches the buffer that buffered sends ({@link Comm#bSend}) copy their messages into
     * (MPI_Buffer_attach).
     */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        check();
        synchronized (LIFECYCLE) {
            if (buffer == null) {
                throw MPIException.of(ERR_BUFFER, "MPI_Buffer_attach: buffer is null");
            }
            if (attached != null) {
                throw MPIException.of(ERR_BUFFER, "MPI_Buffer_attach: a buffer is already attached");
            }
            attached = buffer;
            attachedInUse = 0;
        }
    }

    /** Detaches the buffer, first waiting until the buffered sends using it are delivered. */
    public static byte[] detachBuffer() throws MPIException {
        MpiProcess p = process();
        p.engine().awaitCondition(() -> {
            synchronized (LIFECYCLE) {
                return attachedInUse == 0;
            }
        });
        synchronized (LIFECYCLE) {
            byte[] b = attached;
            attached = null;
            return b;
        }
    }

    static boolean bsendReserve(long bytes) {
        synchronized (LIFECYCLE) {
            long need = bytes + BSEND_OVERHEAD;
            if (attached == null || attachedInUse + need > attached.length) {
                return false;
            }
            attachedInUse += need;
            return true;
        }
    }

    static void bsendRelease(long bytes) {
        synchronized (LIFECYCLE) {
            attachedInUse -= bytes + BSEND_OVERHEAD;
        }
    }

    // ------------------------------------------------------------------ fatal errors

    /** ERRORS_ARE_FATAL: print rank, call and reason, and end the whole job. */
    static void fatal(String call, int errorClass, String reason) {
        abortWith(process, errorClass == 0 ? 1 : errorClass, call + ": " + reason
                + " [" + ErrorClass.describe(errorClass) + "]");
    }

    static void abortJob(int code, String reason) throws MPIException {
        abortWith(process(), code, reason);
    }

    /** One line on stderr (the bootstrap's "rank N aborts the job (code C): ..."), then the end. */
    private static void abortWith(MpiProcess p, int code, String msg) {
        System.out.flush();
        if (p != null) {
            p.bootstrap().abort(code, msg); // prints the line; the process manager ends every rank
        } else {
            System.err.println("verbatim: " + msg);
            System.err.flush();
        }
        Runtime.getRuntime().halt(code == 0 ? 1 : code);
    }

    // ------------------------------------------------------------------ buffers

    /**
     * Where the buffers of {@link #newByteBuffer} and the other {@code new*Buffer} start: a cache
     * line. {@code allocateDirect} gives malloc's alignment (16 bytes past a line for large
     * buffers), and then every row of a matrix, and every block a derived type picks out of it,
     * straddles one more cache line than it needs to: measured on the datatype paper's vector of
     * 256-byte blocks, unpacking into such a buffer took 22% longer than into an aligned one.
     */
    private static final int BUFFER_ALIGNMENT = 64;

    /**
     * A direct byte buffer of {@code capacity} bytes in native byte order, as every nonblocking
     * call and the zero-copy paths prefer, starting on a cache line.
     */
    public static ByteBuffer newByteBuffer(int capacity) {
        if (capacity < 0 || capacity > Integer.MAX_VALUE - BUFFER_ALIGNMENT) {
            return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
        }
        ByteBuffer raw = ByteBuffer.allocateDirect(capacity + BUFFER_ALIGNMENT - 1);
        int skip = (BUFFER_ALIGNMENT - raw.alignmentOffset(0, BUFFER_ALIGNMENT)) % BUFFER_ALIGNMENT;
        return raw.slice(skip, capacity).order(ByteOrder.nativeOrder());
    }

    /** A direct char buffer of {@code capacity} chars in native byte order. */
    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asCharBuffer();
    }

    /** A direct short buffer of {@code capacity} shorts in native byte order. */
    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asShortBuffer();
    }

    /** A direct int buffer of {@code capacity} ints in native byte order. */
    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asIntBuffer();
    }

    /** A direct long buffer of {@code capacity} longs in native byte order. */
    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asLongBuffer();
    }

    /** A direct float buffer of {@code capacity} floats in native byte order. */
    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asFloatBuffer();
    }

    /** A direct double buffer of {@code capacity} doubles in native byte order. */
    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asDoubleBuffer();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return ((ByteBuffer) buf.clear().position(offset)).slice().order(ByteOrder.nativeOrder());
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static CharBuffer slice(CharBuffer buf, int offset) {
        return ((CharBuffer) buf.clear().position(offset)).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return ((ShortBuffer) buf.clear().position(offset)).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static IntBuffer slice(IntBuffer buf, int offset) {
        return ((IntBuffer) buf.clear().position(offset)).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static LongBuffer slice(LongBuffer buf, int offset) {
        return ((LongBuffer) buf.clear().position(offset)).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return ((FloatBuffer) buf.clear().position(offset)).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return ((DoubleBuffer) buf.clear().position(offset)).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * A view of {@code buf} from element {@code offset} on: how Java code passes "buffer + offset"
     * to an MPI call.
     */
    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
