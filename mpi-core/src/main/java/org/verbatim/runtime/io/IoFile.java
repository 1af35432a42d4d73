package org.verbatim.runtime.io;

import java.util.Map;
import org.verbatim.datatype.CommittedType;
import org.verbatim.runtime.base.RequestState;

/**
 * One open file of the io module, as {@code mpi.File} sees it. Offsets and positions are in
 * etypes of the current view; sizes in bytes. Methods documented as collective must be called
 * by every member of the file's group in the same order. Errors are thrown as
 * {@link org.verbatim.runtime.base.MpiError}.
 */
public interface IoFile {
    /** Whence for {@link #seek}: from the start, the current position, or the end of file. */
    enum Whence { SET, CUR, END }

    /** The file's size in bytes now. */
    long size();

    /** MPI_File_set_size (collective): truncates or extends (the new bytes read as zeros). */
    void setSize(long bytes);

    /** MPI_File_preallocate (collective): the file is at least {@code bytes} long after. */
    void preallocate(long bytes);

    /**
     * MPI_File_set_view (collective): data start {@code disp} bytes into the file, laid out as
     * {@code filetype} tiled from there, counted in {@code etype}s; both pointers go to 0.
     */
    void setView(long disp, CommittedType etype, CommittedType filetype, Map<String, String> info);

    /**
     * A blocking read or write of {@code buf}'s data at {@code offset} (EXPLICIT; ignored
     * otherwise); {@code collective} when every member calls it together. Returns the bytes
     * moved: a read stops at the end of file, so it may move fewer than asked.
     */
    long transfer(boolean write, Access access, long offset, IoBuffer buf, boolean collective);

    /**
     * A nonblocking read or write (EXPLICIT, INDIVIDUAL or SHARED): the pointer moves at once,
     * the data move as the progress engine runs; the request's byte count is what moved.
     */
    RequestState start(boolean write, Access access, long offset, IoBuffer buf);

    /** MPI_File_seek of the individual pointer (etypes). */
    void seek(long offset, Whence whence);

    /** The individual pointer (etypes). */
    long position();

    /** The absolute byte offset of view offset {@code offset} (etypes). */
    long byteOffset(long offset);

    /** MPI_File_seek_shared (collective; every member passes the same arguments). */
    void seekShared(long offset, Whence whence);

    /** The shared pointer (etypes). */
    long positionShared();

    /** MPI_File_set_atomicity (collective). */
    void setAtomicity(boolean atomic);

    boolean atomicity();

    /** MPI_File_sync (collective): this member's writes reach the storage device. */
    void sync();

    /** MPI_File_set_info (collective): hints the module knows are taken, others ignored. */
    void setInfo(Map<String, String> info);

    /** The hints in force. */
    Map<String, String> info();

    /** MPI_File_close (collective). */
    void close();
}
