package org.verbatim.runtime.rma;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * Makes MPI windows: the service behind {@code mpi.Win}, offered by a runtime extension (the
 * onesided module) and found by {@code MpiProcess.extension(WindowProvider.class)}. Without one,
 * every window call fails with MPI_ERR_UNSUPPORTED_OPERATION.
 *
 * <p>Every method is collective over {@code group}. Errors are thrown as
 * {@link org.verbatim.runtime.base.MpiError} with their MPI error class.
 */
public interface WindowProvider {
    /** MPI_Win_create: exposes {@code base} (native memory the caller owns). */
    RmaWindow create(WindowGroup group, MemorySegment base, int dispUnit, Map<String, String> info);

    /**
     * MPI_Win_allocate ({@code shared} false) or MPI_Win_allocate_shared ({@code shared} true):
     * the window owns {@code bytes} of zeroed memory, given back by {@link RmaWindow#base()}.
     */
    RmaWindow allocate(WindowGroup group, long bytes, int dispUnit, boolean shared,
                       Map<String, String> info);

    /** MPI_Win_create_dynamic: memory is attached later ({@link RmaWindow#attach}). */
    RmaWindow createDynamic(WindowGroup group, Map<String, String> info);
}
