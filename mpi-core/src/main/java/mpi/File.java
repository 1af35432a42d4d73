package mpi;

import java.nio.Buffer;
import org.verbatim.runtime.MpiProcess;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.io.Access;
import org.verbatim.runtime.io.FileProvider;
import org.verbatim.runtime.io.IoFile;

/**
 * An MPI file (MPI-IO, MPI-3.1 chapter 13) with the signatures of Open MPI's Java bindings. The
 * calls check their arguments here ({@link FileArgs}) and delegate to the {@link FileProvider}
 * of the io module; without that module on the class path every call fails with
 * MPI_ERR_UNSUPPORTED_OPERATION. Offsets and positions are in etypes of the current view. Errors
 * go to the file's handler, {@link MPI#ERRORS_RETURN} unless set otherwise (as MPI specifies for
 * files); errors of open and delete are returned.
 */
public final class File {
    private IoFile impl;
    private FileComm group;
    private final Group fileGroup;
    private final int amode;
    private Errhandler errhandler = MPI.ERRORS_RETURN;
    private FileView view;
    private FileDatarep datarep = FileDatarep.NATIVE;
    private final FileSplit split = new FileSplit(this);

    /**
     * MPI_File_open (collective over {@code comm}) with no hints.
     *
     * @param comm     the processes that open the file together
     * @param filename the file's path
     * @param amode    MPI.MODE_* bits
     * @throws MPIException ERR_AMODE, ERR_NO_SUCH_FILE, ERR_FILE_EXISTS, ERR_ACCESS, ...
     */
    public File(Comm comm, String filename, int amode) throws MPIException {
        this(comm, filename, amode, MPI.INFO_NULL);
    }

    /**
     * MPI_File_open (collective over {@code comm}) with hints.
     *
     * @param comm     the processes that open the file together
     * @param filename the file's path
     * @param amode    MPI.MODE_* bits
     * @param info     hints (cb_buffer_size, cb_nodes, romio_cb_read, romio_cb_write)
     * @throws MPIException ERR_AMODE, ERR_NO_SUCH_FILE, ERR_FILE_EXISTS, ERR_ACCESS, ...
     */
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        String call = "MPI_File_open";
        MPI.check();
        if (comm == null) {
            throw raise(call, ErrorClass.ERR_COMM, "communicator is null");
        }
        comm.checkUsable(call);
        if (!(comm instanceof Intracomm ic) || comm.isInter()) {
            throw raise(call, ErrorClass.ERR_COMM, "files are opened on an intra-communicator");
        }
        if (filename == null) {
            throw raise(call, ErrorClass.ERR_ARG, "file name is null");
        }
        this.amode = amode;
        this.view = new FileView(0, MPI.BYTE, MPI.BYTE, "native");
        this.fileGroup = comm.getGroup();
        impl = wrap(call, () -> {
            FileArgs.checkAmode(amode);
            FileProvider p = provider();
            java.util.Map<String, String> hints = FileArgs.map(info);
            group = new FileComm(ic);
            try {
                return p.open(group, filename, amode, hints);
            } catch (RuntimeException e) {
                group.free();
                group = null;
                throw e;
            }
        });
    }

    /**
     * MPI_File_delete with no hints.
     *
     * @param filename the file's path
     * @throws MPIException ERR_NO_SUCH_FILE if there is none, ERR_ACCESS, ...
     */
    public static void delete(String filename) throws MPIException {
        delete(filename, MPI.INFO_NULL);
    }

    /**
     * MPI_File_delete.
     *
     * @param filename the file's path
     * @param info     hints (none are used)
     * @throws MPIException ERR_NO_SUCH_FILE if there is none, ERR_ACCESS, ...
     */
    public static void delete(String filename, Info info) throws MPIException {
        String call = "MPI_File_delete";
        MPI.check();
        try {
            if (filename == null) {
                throw MPIException.of(ErrorClass.ERR_ARG, "file name is null");
            }
            provider().delete(filename, FileArgs.map(info));
        } catch (MpiError e) {
            throw MPIException.of(e.errorClass(), call + ": " + e.getMessage());
        } catch (MPIException e) {
            throw MPIException.of(e.getErrorClass(), call + ": " + e.getMessage());
        }
    }

    private static FileProvider provider() throws MPIException {
        MpiProcess process = MPI.process();
        FileProvider p = process.extension(FileProvider.class);
        if (p == null) {
            throw MPIException.of(ErrorClass.ERR_UNSUPPORTED_OPERATION, "MPI-IO needs the "
                    + "verbatim-io module on the class path");
        }
        return p;
    }

    /**
     * MPI_File_close (collective); the file is deleted if opened with MODE_DELETE_ON_CLOSE.
     *
     * @throws MPIException ERR_FILE if the file is closed already
     */
    public void close() throws MPIException {
        String call = "MPI_File_close";
        run(call, () -> {
            IoFile f = impl(call);
            split.forget();
            impl = null;
            try {
                f.close();
            } finally {
                group.free();
            }
        });
    }

    // ------------------------------------------------------------------ size, group, info

    /**
     * MPI_File_set_size (collective): truncates or extends the file.
     *
     * @param size new size in bytes
     * @throws MPIException ERR_ARG for a negative size, ERR_READ_ONLY, ERR_IO
     */
    public void setSize(long size) throws MPIException {
        String call = "MPI_File_set_size";
        run(call, () -> {
            IoFile f = writable(call);
            nonNegative(size, "size");
            f.setSize(size);
        });
    }

    /**
     * MPI_File_preallocate (collective): the file is at least {@code size} bytes long after.
     *
     * @param size bytes to reserve
     * @throws MPIException ERR_ARG for a negative size, ERR_READ_ONLY, ERR_IO
     */
    public void preallocate(long size) throws MPIException {
        String call = "MPI_File_preallocate";
        run(call, () -> {
            IoFile f = writable(call);
            nonNegative(size, "size");
            f.preallocate(size);
        });
    }

    /**
     * MPI_File_get_size.
     *
     * @return the file's size in bytes
     * @throws MPIException ERR_FILE if closed, ERR_IO
     */
    public long getSize() throws MPIException {
        return wrap("MPI_File_get_size", () -> impl("MPI_File_get_size").size());
    }

    /**
     * MPI_File_get_group.
     *
     * @return the group of the communicator that opened the file
     * @throws MPIException ERR_FILE if closed
     */
    public Group getGroup() throws MPIException {
        return wrap("MPI_File_get_group", () -> {
            impl("MPI_File_get_group");
            return fileGroup;
        });
    }

    /**
     * MPI_File_get_amode.
     *
     * @return the MPI.MODE_* bits the file was opened with
     * @throws MPIException ERR_FILE if closed
     */
    public int getAMode() throws MPIException {
        return wrap("MPI_File_get_amode", () -> {
            impl("MPI_File_get_amode");
            return amode;
        });
    }

    /**
     * MPI_File_set_info (collective): hints the io module knows are taken, others ignored.
     *
     * @param info hints
     * @throws MPIException ERR_INFO for a freed info, ERR_INFO_VALUE for a bad hint value
     */
    public void setInfo(Info info) throws MPIException {
        String call = "MPI_File_set_info";
        run(call, () -> impl(call).setInfo(FileArgs.map(info)));
    }

    /**
     * MPI_File_get_info.
     *
     * @return a new Info with the hints in force
     * @throws MPIException ERR_FILE if closed
     */
    public Info getInfo() throws MPIException {
        String call = "MPI_File_get_info";
        return wrap(call, () -> FileArgs.info(impl(call).info()));
    }

    // ------------------------------------------------------------------ view

    /**
     * MPI_File_set_view (collective) with no hints.
     *
     * @param disp     bytes from the start of the file (MPI.DISPLACEMENT_CURRENT with
     *                 MODE_SEQUENTIAL)
     * @param etype    elementary type: offsets count these
     * @param filetype tiled from {@code disp}; made of etypes
     * @param datarep  "native", "internal" (the same bytes as native) or "external32"
     *                 (big-endian; see {@link #setView(long, Datatype, Datatype, String, Info)})
     * @throws MPIException ERR_ARG, ERR_TYPE, ERR_UNSUPPORTED_DATAREP
     */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep)
            throws MPIException {
        setView(disp, etype, filetype, datarep, MPI.INFO_NULL);
    }

    /**
     * MPI_File_set_view (collective); both file pointers go to 0.
     *
     * <p>Data representations (names match case-insensitively; {@link #getView()} returns the
     * string given): "native" stores memory bytes as they are; "internal" is Verbatim's choice
     * and is the native layout; "external32" (MPI-4.1 14.5.2) stores each predefined element
     * big-endian. The external32 sizes of BYTE, CHAR (MPI_UINT16_T in Open MPI's bindings),
     * SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE, PACKED, the complex types, INT2 and FLOAT_INT
     * equal their native sizes, so the file layout is the native one: writes convert a copy of
     * the data (never the caller's buffer), reads convert after reading, by the memory type's
     * type map. SHORT_INT, LONG_INT and DOUBLE_INT have other external32 sizes and are refused
     * (ERR_UNSUPPORTED_DATAREP) in the etype, filetype or memory type.
     *
     * @param disp     bytes from the start of the file (MPI.DISPLACEMENT_CURRENT with
     *                 MODE_SEQUENTIAL)
     * @param etype    elementary type: offsets count these
     * @param filetype tiled from {@code disp}; made of etypes
     * @param datarep  "native", "internal" or "external32" (others are
     *                 ERR_UNSUPPORTED_DATAREP, before the view changes)
     * @param info     hints
     * @throws MPIException ERR_ARG, ERR_TYPE, ERR_UNSUPPORTED_DATAREP
     */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info)
            throws MPIException {
        String call = "MPI_File_set_view";
        run(call, () -> {
            IoFile f = impl(call);
            for (Datatype t : new Datatype[] {etype, filetype}) {
                if (t == null) {
                    throw MPIException.of(ErrorClass.ERR_TYPE, "datatype is null");
                }
                t.check();
            }
            FileDatarep rep = FileDatarep.of(datarep);
            if (rep.converts()) {
                FileExternal32.check(etype, "etype");
                FileExternal32.check(filetype, "filetype");
            }
            if (etype.byteSize == 0 || filetype.byteSize % etype.byteSize != 0) {
                throw MPIException.of(ErrorClass.ERR_TYPE, "the filetype (" + filetype.byteSize
                        + " bytes) is not made of whole etypes (" + etype.byteSize + " bytes)");
            }
            long d = disp;
            if (disp == MPI.DISPLACEMENT_CURRENT) {
                if ((amode & MPI.MODE_SEQUENTIAL) == 0) {
                    throw MPIException.of(ErrorClass.ERR_ARG, "DISPLACEMENT_CURRENT needs "
                            + "MODE_SEQUENTIAL");
                }
                d = f.byteOffset(f.positionShared());
            }
            nonNegative(d, "displacement");
            f.setView(d, etype.form, filetype.form, FileArgs.map(info));
            view = new FileView(d, etype, filetype, datarep);
            this.datarep = rep;
        });
    }

    /**
     * The view set last (MPI_File_get_view); at first (0, MPI.BYTE, MPI.BYTE, "native").
     *
     * @return the view
     */
    public FileView getView() {
        return view;
    }

    // ------------------------------------------------------------------ explicit offsets

    /**
     * MPI_File_read_at.
     *
     * @param offset where to start, in etypes
     * @param buf    array or Buffer
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @return status; {@code getCount} is what was read (less at the end of file)
     * @throws MPIException ERR_ACCESS (MODE_WRONLY), ERR_ARG, ERR_COUNT, ERR_TYPE, ERR_BUFFER
     */
    public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read_at", false, Access.EXPLICIT, offset, buf, count, type, false);
    }

    /**
     * MPI_File_read_at_all (collective; two-phase collective buffering where access interleaves).
     *
     * @param offset where to start, in etypes
     * @param buf    array or Buffer
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @return status; {@code getCount} is what was read
     * @throws MPIException as {@link #readAt}
     */
    public Status readAtAll(long offset, Object buf, int count, Datatype type)
            throws MPIException {
        return io("MPI_File_read_at_all", false, Access.EXPLICIT, offset, buf, count, type, true);
    }

    /**
     * MPI_File_write_at.
     *
     * @param offset where to start, in etypes
     * @param buf    array or Buffer
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @return status; {@code getCount} is what was written
     * @throws MPIException ERR_READ_ONLY (MODE_RDONLY), ERR_ARG, ERR_COUNT, ERR_TYPE, ERR_BUFFER
     */
    public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write_at", true, Access.EXPLICIT, offset, buf, count, type, false);
    }

    /**
     * MPI_File_write_at_all (collective; two-phase collective buffering where access
     * interleaves).
     *
     * @param offset where to start, in etypes
     * @param buf    array or Buffer
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @return status; {@code getCount} is what was written
     * @throws MPIException as {@link #writeAt}
     */
    public Status writeAtAll(long offset, Object buf, int count, Datatype type)
            throws MPIException {
        return io("MPI_File_write_at_all", true, Access.EXPLICIT, offset, buf, count, type, true);
    }

    /**
     * MPI_File_iread_at.
     *
     * @param offset where to start, in etypes
     * @param buf    direct Buffer (IllegalArgumentException otherwise)
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @return the request; its status counts what was read
     * @throws MPIException as {@link #readAt}
     */
    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return start("MPI_File_iread_at", false, Access.EXPLICIT, offset, buf, count, type);
    }

    /**
     * MPI_File_iread_at_all (collective; completes as the progress engine runs).
     *
     * @param offset where to start, in etypes
     * @param buf    direct Buffer
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @return the request
     * @throws MPIException as {@link #readAt}
     */
    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type)
            throws MPIException {
        return start("MPI_File_iread_at_all", false, Access.EXPLICIT, offset, buf, count, type);
    }

    /**
     * MPI_File_iwrite_at.
     *
     * @param offset where to start, in etypes
     * @param buf    direct Buffer
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @return the request; its status counts what was written
     * @throws MPIException as {@link #writeAt}
     */
    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type)
            throws MPIException {
        return start("MPI_File_iwrite_at", true, Access.EXPLICIT, offset, buf, count, type);
    }

    /**
     * MPI_File_iwrite_at_all (collective; completes as the progress engine runs).
     *
     * @param offset where to start, in etypes
     * @param buf    direct Buffer
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @return the request
     * @throws MPIException as {@link #writeAt}
     */
    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type)
            throws MPIException {
        return start("MPI_File_iwrite_at_all", true, Access.EXPLICIT, offset, buf, count, type);
    }

    // ------------------------------------------------------------------ individual pointer

    /**
     * MPI_File_read at the individual file pointer, which moves past what was read.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return status; {@code getCount} is what was read
     * @throws MPIException as {@link #readAt}; ERR_UNSUPPORTED_OPERATION with MODE_SEQUENTIAL
     */
    public Status read(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read", false, Access.INDIVIDUAL, 0, buf, count, type, false);
    }

    /**
     * MPI_File_read_all (collective) at the individual file pointer.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return status
     * @throws MPIException as {@link #read}
     */
    public Status readAll(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read_all", false, Access.INDIVIDUAL, 0, buf, count, type, true);
    }

    /**
     * MPI_File_write at the individual file pointer, which moves past what was written.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return status
     * @throws MPIException as {@link #writeAt}; ERR_UNSUPPORTED_OPERATION with MODE_SEQUENTIAL
     */
    public Status write(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write", true, Access.INDIVIDUAL, 0, buf, count, type, false);
    }

    /**
     * MPI_File_write_all (collective) at the individual file pointer.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return status
     * @throws MPIException as {@link #write}
     */
    public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write_all", true, Access.INDIVIDUAL, 0, buf, count, type, true);
    }

    /**
     * MPI_File_iread at the individual file pointer (which moves at once).
     *
     * @param buf   direct Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return the request
     * @throws MPIException as {@link #read}
     */
    public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
        return start("MPI_File_iread", false, Access.INDIVIDUAL, 0, buf, count, type);
    }

    /**
     * MPI_File_iread_all (collective) at the individual file pointer.
     *
     * @param buf   direct Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return the request
     * @throws MPIException as {@link #read}
     */
    public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
        return start("MPI_File_iread_all", false, Access.INDIVIDUAL, 0, buf, count, type);
    }

    /**
     * MPI_File_iwrite at the individual file pointer (which moves at once).
     *
     * @param buf   direct Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return the request
     * @throws MPIException as {@link #write}
     */
    public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
        return start("MPI_File_iwrite", true, Access.INDIVIDUAL, 0, buf, count, type);
    }

    /**
     * MPI_File_iwrite_all (collective) at the individual file pointer.
     *
     * @param buf   direct Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return the request
     * @throws MPIException as {@link #write}
     */
    public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
        return start("MPI_File_iwrite_all", true, Access.INDIVIDUAL, 0, buf, count, type);
    }

    /**
     * MPI_File_seek of the individual file pointer.
     *
     * @param offset etypes
     * @param whence MPI.SEEK_SET, SEEK_CUR or SEEK_END
     * @throws MPIException ERR_ARG for another whence or a negative result
     */
    public void seek(long offset, int whence) throws MPIException {
        String call = "MPI_File_seek";
        run(call, () -> {
            IoFile f = individual(call);
            f.seek(offset, whence(whence));
        });
    }

    /**
     * MPI_File_get_position.
     *
     * @return the individual file pointer, in etypes
     * @throws MPIException ERR_FILE if closed
     */
    public long getPosition() throws MPIException {
        String call = "MPI_File_get_position";
        return wrap(call, () -> individual(call).position());
    }

    /**
     * MPI_File_get_byte_offset.
     *
     * @param offset a view offset, in etypes
     * @return its absolute byte offset in the file
     * @throws MPIException ERR_ARG for a negative offset
     */
    public long getByteOffset(long offset) throws MPIException {
        String call = "MPI_File_get_byte_offset";
        return wrap(call, () -> {
            IoFile f = impl(call);
            nonNegative(offset, "offset");
            return f.byteOffset(offset);
        });
    }

    // ------------------------------------------------------------------ shared pointer

    /**
     * MPI_File_read_shared: at the shared file pointer, which every member moves atomically.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return status
     * @throws MPIException as {@link #readAt}
     */
    public Status readShared(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read_shared", false, Access.SHARED, 0, buf, count, type, false);
    }

    /**
     * MPI_File_write_shared: at the shared file pointer, which every member moves atomically.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return status
     * @throws MPIException as {@link #writeAt}
     */
    public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write_shared", true, Access.SHARED, 0, buf, count, type, false);
    }

    /**
     * MPI_File_iread_shared.
     *
     * @param buf   direct Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return the request
     * @throws MPIException as {@link #readShared}
     */
    public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
        return start("MPI_File_iread_shared", false, Access.SHARED, 0, buf, count, type);
    }

    /**
     * MPI_File_iwrite_shared.
     *
     * @param buf   direct Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return the request
     * @throws MPIException as {@link #writeShared}
     */
    public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
        return start("MPI_File_iwrite_shared", true, Access.SHARED, 0, buf, count, type);
    }

    /**
     * MPI_File_read_ordered (collective): at the shared pointer, in rank order.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return status
     * @throws MPIException as {@link #readAt}
     */
    public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_read_ordered", false, Access.ORDERED, 0, buf, count, type, true);
    }

    /**
     * MPI_File_write_ordered (collective): at the shared pointer, in rank order.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @return status
     * @throws MPIException as {@link #writeAt}
     */
    public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
        return io("MPI_File_write_ordered", true, Access.ORDERED, 0, buf, count, type, true);
    }

    /**
     * MPI_File_seek_shared (collective; every member passes the same arguments).
     *
     * @param offset etypes
     * @param whence MPI.SEEK_SET, SEEK_CUR or SEEK_END
     * @throws MPIException ERR_ARG for another whence or a negative result
     */
    public void seekShared(long offset, int whence) throws MPIException {
        String call = "MPI_File_seek_shared";
        run(call, () -> impl(call).seekShared(offset, whence(whence)));
    }

    /**
     * MPI_File_get_position_shared.
     *
     * @return the shared file pointer, in etypes
     * @throws MPIException ERR_FILE if closed
     */
    public long getPositionShared() throws MPIException {
        String call = "MPI_File_get_position_shared";
        return wrap(call, () -> impl(call).positionShared());
    }

    // ------------------------------------------------------------------ split collectives

    /**
     * MPI_File_read_at_all_begin: with a direct buffer the read proceeds until the end call;
     * otherwise the whole collective read happens here (as Open MPI's bindings).
     *
     * @param offset where to start, in etypes
     * @param buf    array or Buffer
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @throws MPIException as {@link #readAtAll}; ERR_OTHER if a split collective is active
     */
    public void readAtAllBegin(long offset, Object buf, int count, Datatype type)
            throws MPIException {
        split.begin("MPI_File_read_at_all_begin", false, Access.EXPLICIT, offset, buf, count,
                type);
    }

    /**
     * MPI_File_read_at_all_end.
     *
     * @param buf the buffer given to the begin call
     * @return status of the read
     * @throws MPIException ERR_OTHER without a matching begin
     */
    public Status readAtAllEnd(Object buf) throws MPIException {
        return split.end("MPI_File_read_at_all_end", false, Access.EXPLICIT, buf);
    }

    /**
     * MPI_File_write_at_all_begin (see {@link #readAtAllBegin}).
     *
     * @param offset where to start, in etypes
     * @param buf    array or Buffer
     * @param count  elements of {@code type}
     * @param type   memory datatype
     * @throws MPIException as {@link #writeAtAll}; ERR_OTHER if a split collective is active
     */
    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type)
            throws MPIException {
        split.begin("MPI_File_write_at_all_begin", true, Access.EXPLICIT, offset, buf, count,
                type);
    }

    /**
     * MPI_File_write_at_all_end.
     *
     * @param buf the buffer given to the begin call
     * @return status of the write
     * @throws MPIException ERR_OTHER without a matching begin
     */
    public Status writeAtAllEnd(Object buf) throws MPIException {
        return split.end("MPI_File_write_at_all_end", true, Access.EXPLICIT, buf);
    }

    /**
     * MPI_File_read_all_begin (see {@link #readAtAllBegin}).
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @throws MPIException as {@link #readAll}; ERR_OTHER if a split collective is active
     */
    public void readAllBegin(Object buf, int count, Datatype type) throws MPIException {
        split.begin("MPI_File_read_all_begin", false, Access.INDIVIDUAL, 0, buf, count, type);
    }

    /**
     * MPI_File_read_all_end.
     *
     * @param buf the buffer given to the begin call
     * @return status of the read
     * @throws MPIException ERR_OTHER without a matching begin
     */
    public Status readAllEnd(Object buf) throws MPIException {
        return split.end("MPI_File_read_all_end", false, Access.INDIVIDUAL, buf);
    }

    /**
     * MPI_File_write_all_begin (see {@link #readAtAllBegin}).
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @throws MPIException as {@link #writeAll}; ERR_OTHER if a split collective is active
     */
    public void writeAllBegin(Object buf, int count, Datatype type) throws MPIException {
        split.begin("MPI_File_write_all_begin", true, Access.INDIVIDUAL, 0, buf, count, type);
    }

    /**
     * MPI_File_write_all_end.
     *
     * @param buf the buffer given to the begin call
     * @return status of the write
     * @throws MPIException ERR_OTHER without a matching begin
     */
    public Status writeAllEnd(Object buf) throws MPIException {
        return split.end("MPI_File_write_all_end", true, Access.INDIVIDUAL, buf);
    }

    /**
     * MPI_File_read_ordered_begin: the ordered read happens here.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @throws MPIException as {@link #readOrdered}; ERR_OTHER if a split collective is active
     */
    public void readOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        split.begin("MPI_File_read_ordered_begin", false, Access.ORDERED, 0, buf, count, type);
    }

    /**
     * MPI_File_read_ordered_end.
     *
     * @param buf the buffer given to the begin call
     * @return status of the read
     * @throws MPIException ERR_OTHER without a matching begin
     */
    public Status readOrderedEnd(Object buf) throws MPIException {
        return split.end("MPI_File_read_ordered_end", false, Access.ORDERED, buf);
    }

    /**
     * MPI_File_write_ordered_begin: the ordered write happens here.
     *
     * @param buf   array or Buffer
     * @param count elements of {@code type}
     * @param type  memory datatype
     * @throws MPIException as {@link #writeOrdered}; ERR_OTHER if a split collective is active
     */
    public void writeOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        split.begin("MPI_File_write_ordered_begin", true, Access.ORDERED, 0, buf, count, type);
    }

    /**
     * MPI_File_write_ordered_end.
     *
     * @param buf the buffer given to the begin call
     * @return status of the write
     * @throws MPIException ERR_OTHER without a matching begin
     */
    public Status writeOrderedEnd(Object buf) throws MPIException {
        return split.end("MPI_File_write_ordered_end", true, Access.ORDERED, buf);
    }

    // ------------------------------------------------------------------ consistency

    /**
     * MPI_File_get_type_extent in the view's data representation. In all three ("native",
     * "internal", "external32") it is the type's extent: the external32 sizes of the types
     * Verbatim converts equal their native ones, so the extents do too.
     *
     * @param type a datatype
     * @return its extent in units of its base type, as {@link Datatype#getExtent()}
     * @throws MPIException ERR_TYPE for an invalid type; ERR_UNSUPPORTED_DATAREP under
     *                      external32 for a type holding SHORT_INT, LONG_INT or DOUBLE_INT
     */
    public int getTypeExtent(Datatype type) throws MPIException {
        String call = "MPI_File_get_type_extent";
        return wrap(call, () -> {
            impl(call);
            if (type == null) {
                throw MPIException.of(ErrorClass.ERR_TYPE, "datatype is null");
            }
            if (datarep.converts()) {
                FileExternal32.check(type, "type");
            }
            return type.getExtent();
        });
    }

    /**
     * MPI_File_set_atomicity (collective): in atomic mode each access is atomic against
     * conflicting accesses of the other members (byte-range locks on the file).
     *
     * @param atomicity true for atomic mode
     * @throws MPIException ERR_FILE if closed
     */
    public void setAtomicity(boolean atomicity) throws MPIException {
        String call = "MPI_File_set_atomicity";
        run(call, () -> impl(call).setAtomicity(atomicity));
    }

    /**
     * MPI_File_get_atomicity.
     *
     * @return true in atomic mode
     * @throws MPIException ERR_FILE if closed
     */
    public boolean getAtomicity() throws MPIException {
        String call = "MPI_File_get_atomicity";
        return wrap(call, () -> impl(call).atomicity());
    }

    /**
     * MPI_File_sync (collective): every member's writes reach the storage device.
     *
     * @throws MPIException ERR_IO
     */
    public void sync() throws MPIException {
        String call = "MPI_File_sync";
        run(call, () -> impl(call).sync());
    }

    // ------------------------------------------------------------------ errors

    /**
     * MPI_File_set_errhandler (files start with {@link MPI#ERRORS_RETURN}).
     *
     * @param errhandler the handler
     * @throws MPIException ERR_ARG for null
     */
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        String call = "MPI_File_set_errhandler";
        run(call, () -> {
            impl(call);
            if (errhandler == null) {
                throw MPIException.of(ErrorClass.ERR_ARG, "error handler is null");
            }
            this.errhandler = errhandler;
        });
    }

    /**
     * MPI_File_get_errhandler.
     *
     * @return the file's handler
     * @throws MPIException ERR_FILE if closed
     */
    public Errhandler getErrhandler() throws MPIException {
        String call = "MPI_File_get_errhandler";
        return wrap(call, () -> {
            impl(call);
            return errhandler;
        });
    }

    /**
     * MPI_File_call_errhandler: invokes the file's handler with {@code errorCode}; under
     * ERRORS_RETURN it returns (MPI's handler "returns the error code").
     *
     * @param errorCode an error class or code
     * @throws MPIException never under ERRORS_RETURN; the job ends under ERRORS_ARE_FATAL
     */
    public void callErrhandler(int errorCode) throws MPIException {
        MPI.check();
        if (errhandler.fatal) {
            MPI.fatal("MPI_File_call_errhandler", errorCode, ErrorClass.describe(errorCode));
        }
    }

    // ------------------------------------------------------------------ internals

    Status io(String call, boolean write, Access access, long offset, Object buf, int count,
              Datatype type, boolean collective) throws MPIException {
        return wrap(call, () -> {
            IoFile f = checkedAccess(call, write, access, offset);
            FileArgs.Resolved r = write ? FileArgs.forWrite(buf, count, type)
                    : FileArgs.forRead(buf, count, type);
            wholeEtypes(r.io().bytes());
            long bytes;
            if (datarep.converts()) {
                FileExternal32.check(type, "memory type");
                FileExternal32.Staged staged = new FileExternal32.Staged(r.io(), type, write);
                bytes = f.transfer(write, access, offset, staged.io(), collective);
                staged.finish(bytes);
            } else {
                bytes = f.transfer(write, access, offset, r.io(), collective);
            }
            if (r.copyBack() != null) {
                r.copyBack().run();
            }
            return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, bytes, false);
        });
    }

    Request start(String call, boolean write, Access access, long offset, Buffer buf, int count,
                  Datatype type) throws MPIException {
        FileArgs.checkDirect(buf, count);
        return wrap(call, () -> {
            IoFile f = checkedAccess(call, write, access, offset);
            FileArgs.Resolved r = write ? FileArgs.forWrite(buf, count, type)
                    : FileArgs.forRead(buf, count, type);
            wholeEtypes(r.io().bytes());
            if (datarep.converts()) {
                FileExternal32.check(type, "memory type");
                FileExternal32.Staged staged = new FileExternal32.Staged(r.io(), type, write);
                return new FileRequest(f.start(write, access, offset, staged.io()), this,
                        group.comm(), call, buf, staged);
            }
            return new FileRequest(f.start(write, access, offset, r.io()), this, group.comm(),
                    call, buf, null);
        });
    }

    private IoFile checkedAccess(String call, boolean write, Access access, long offset)
            throws MPIException {
        IoFile f = write ? writable(call) : impl(call);
        if (!write && (amode & MPI.MODE_WRONLY) != 0) {
            throw MPIException.of(ErrorClass.ERR_ACCESS, "the file was opened MODE_WRONLY");
        }
        if (access == Access.EXPLICIT || access == Access.INDIVIDUAL) {
            individual(call);
        }
        if (access == Access.EXPLICIT) {
            nonNegative(offset, "offset");
        }
        return f;
    }

    private void wholeEtypes(long bytes) throws MPIException {
        int e = view.getEType().byteSize;
        if (bytes % e != 0) {
            throw MPIException.of(ErrorClass.ERR_TYPE, bytes + " bytes are not a whole number "
                    + "of etypes (" + e + " bytes each)");
        }
    }

    private IoFile writable(String call) throws MPIException {
        IoFile f = impl(call);
        if ((amode & MPI.MODE_RDONLY) != 0) {
            throw MPIException.of(ErrorClass.ERR_READ_ONLY, "the file was opened MODE_RDONLY");
        }
        return f;
    }

    private IoFile individual(String call) throws MPIException {
        IoFile f = impl(call);
        if ((amode & MPI.MODE_SEQUENTIAL) != 0) {
            throw MPIException.of(ErrorClass.ERR_UNSUPPORTED_OPERATION, "individual file "
                    + "pointers and explicit offsets are not allowed with MODE_SEQUENTIAL");
        }
        return f;
    }

    private static IoFile.Whence whence(int whence) throws MPIException {
        if (whence == MPI.SEEK_SET) {
            return IoFile.Whence.SET;
        } else if (whence == MPI.SEEK_CUR) {
            return IoFile.Whence.CUR;
        } else if (whence == MPI.SEEK_END) {
            return IoFile.Whence.END;
        }
        throw MPIException.of(ErrorClass.ERR_ARG, "whence " + whence + " is not MPI.SEEK_SET, "
                + "SEEK_CUR or SEEK_END");
    }

    private static void nonNegative(long v, String what) throws MPIException {
        if (v < 0) {
            throw MPIException.of(ErrorClass.ERR_ARG, "negative " + what + " " + v);
        }
    }

    IoFile impl(String call) throws MPIException {
        if (impl == null) {
            throw MPIException.of(ErrorClass.ERR_FILE, "invalid file (it has been closed)");
        }
        return impl;
    }

    interface Body<T> {
        T run() throws MPIException;
    }

    interface VoidBody {
        void run() throws MPIException;
    }

    /** Runs a file call: MPI must be live; errors go to the file's handler. */
    <T> T wrap(String call, Body<T> body) throws MPIException {
        MPI.check();
        try {
            return body.run();
        } catch (MpiError e) {
            throw raise(call, e.errorClass(), e.getMessage());
        } catch (MPIException e) {
            throw raise(call, e.getErrorClass(), e.getMessage());
        }
    }

    void run(String call, VoidBody body) throws MPIException {
        wrap(call, () -> {
            body.run();
            return null;
        });
    }

    MPIException raise(String call, int errorClass, String reason) {
        if (errhandler.fatal) {
            MPI.fatal(call, errorClass, reason);
        }
        return MPIException.of(errorClass, call + ": " + reason);
    }
}
