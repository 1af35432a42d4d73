package org.verbatim.runtime.rma;

import org.verbatim.datatype.CommittedType;
import org.verbatim.runtime.op.ElementKind;

/**
 * Where one RMA operation lands: the target's group rank, the displacement in the target's
 * displacement units (an address for dynamic windows), and the target data: {@code bytes} of
 * {@code kind} elements, contiguous from the displacement when {@code layout} is null, else
 * {@code count} elements of the committed {@code layout} whose origin is at the displacement
 * (a derived target datatype: the window walks it, or sends it to the target to apply).
 *
 * <p>The origin side's data is always packed ({@code bytes} long): the API layer packs a derived
 * origin type before the call, and for a result into a derived origin type passes a packed
 * staging segment and {@code resultUnpack}, which the window runs once the result is complete
 * (successfully), before the operation's request completes.
 *
 * @param rank target rank in the window's group
 * @param disp displacement in target units ({@code MPI_Aint} for dynamic windows)
 * @param bytes bytes of target data (packed)
 * @param kind element kind of the target type (for accumulates), OPAQUE for plain bytes
 * @param layout the target datatype when it is not contiguous, else null
 * @param count elements of {@code layout} (unused when it is null)
 * @param resultUnpack places a staged result in the origin's derived type, or null
 */
public record RmaTarget(int rank, long disp, long bytes, ElementKind kind, CommittedType layout,
                        long count, Runnable resultUnpack) {
    /** A contiguous target: {@code bytes} of {@code kind} from the displacement. */
    public RmaTarget(int rank, long disp, long bytes, ElementKind kind) {
        this(rank, disp, bytes, kind, null, 0, null);
    }
}
