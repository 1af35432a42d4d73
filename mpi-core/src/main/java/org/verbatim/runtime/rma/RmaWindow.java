package org.verbatim.runtime.rma;

import java.lang.foreign.MemorySegment;
import org.verbatim.runtime.base.RequestState;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;

/**
 * One window as the API layer drives it (MPI-3.1 chapter 11). The API layer has checked the
 * arguments it can (types, counts, ops, ranks, buffers); the window checks the rest
 * (displacements against the target's size: ERR_RMA_RANGE; epochs: ERR_RMA_SYNC) and throws
 * {@link org.verbatim.runtime.base.MpiError}. Origin, result and compare memory may be heap or
 * native; it must stay valid until the operation completes locally (the returned request, or the
 * synchronisation call that ends the epoch). The data calls return the operation's request when
 * {@code requestBased} is set or the operation has a result; otherwise they may return null.
 */
public interface RmaWindow {
    int FLAVOR_CREATE = 1, FLAVOR_ALLOCATE = 2, FLAVOR_DYNAMIC = 3, FLAVOR_SHARED = 4;
    int MODEL_SEPARATE = 1, MODEL_UNIFIED = 2;

    int flavor();

    int model();

    /** This process's window memory (allocate: the memory the window owns); null for dynamic. */
    MemorySegment base();

    /** Bytes of this process's window memory. */
    long size();

    int dispUnit();

    /** Group rank {@code rank}'s window memory as mapped here, or null if not mapped. */
    MemorySegment sharedQuery(int rank);

    /** Group rank {@code rank}'s displacement unit. */
    int dispUnit(int rank);

    void attach(MemorySegment memory);

    void detach(MemorySegment memory);

    RequestState put(MemorySegment origin, RmaTarget target, boolean requestBased);

    RequestState get(MemorySegment result, RmaTarget target, boolean requestBased);

    RequestState accumulate(MemorySegment origin, RmaTarget target, OpCode op,
                            boolean requestBased);

    /** {@code origin} is ignored (may be null) for NO_OP. */
    RequestState getAccumulate(MemorySegment origin, MemorySegment result, RmaTarget target,
                               OpCode op, boolean requestBased);

    RequestState compareAndSwap(MemorySegment origin, MemorySegment compare, MemorySegment result,
                                RmaTarget target);

    // The "now" calls: a contiguous operation done inside the call, with no request, record or
    // lock of the runtime, where the window can (the target's memory is mapped here and an access
    // epoch to it is open). Each returns false, having done and checked nothing, when it cannot:
    // the caller then takes the general call above, which raises any epoch error. A displacement
    // or count outside the target's window is MPI_ERR_RMA_RANGE with nothing written, as there.
    // {@code rank} is a valid group rank, {@code disp} >= 0, {@code bytes} of the memory given
    // are read or written (from its offset 0), a result segment is writable.

    /** A put of {@code bytes} from {@code origin} at once, or false. */
    boolean putNow(MemorySegment origin, long bytes, int rank, long disp);

    /** A get of {@code bytes} into {@code result} at once, or false. */
    boolean getNow(MemorySegment result, long bytes, int rank, long disp);

    /**
     * An accumulate ({@code result} null) or get-accumulate of {@code bytes} of {@code kind} at
     * once, element-atomic as the general call, or false; {@code origin} is ignored for NO_OP.
     */
    boolean accumulateNow(MemorySegment origin, MemorySegment result, long bytes,
                          ElementKind kind, OpCode op, int rank,
                          long disp);

    /** A compare-and-swap of one element of {@code bytes} at once, or false. */
    boolean compareAndSwapNow(MemorySegment origin, MemorySegment compare, MemorySegment result,
                              long bytes, int rank, long disp);

    void fence(int assertion);

    /** {@code groupRanks}: the window may keep the array; the caller never changes it. */
    void start(int[] groupRanks, int assertion);

    void complete();

    /** {@code groupRanks}: as {@link #start}'s. */
    void post(int[] groupRanks, int assertion);

    void waitFor();

    boolean test();

    /** {@code exclusive}: MPI_LOCK_EXCLUSIVE, else shared. */
    void lock(boolean exclusive, int rank, int assertion);

    void unlock(int rank);

    void lockAll(int assertion);

    void unlockAll();

    void flush(int rank);

    void flushAll();

    void flushLocal(int rank);

    void flushLocalAll();

    void sync();

    /** Collective; fails with ERR_RMA_SYNC while an epoch is open. */
    void free();
}
