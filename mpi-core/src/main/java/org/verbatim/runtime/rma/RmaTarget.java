package org.verbatim.runtime.rma;

import org.verbatim.runtime.op.ElementKind;

/**
 * Where one RMA operation lands: the target's group rank, the displacement in the target's
 * displacement units (an address for dynamic windows), and the target data. Today the target
 * type is contiguous (predefined types and their duplicates): {@code bytes} of {@code kind}
 * elements. Derived target types will add their layout here, built in one place of the API layer.
 *
 * @param rank target rank in the window's group
 * @param disp displacement in target units ({@code MPI_Aint} for dynamic windows)
 * @param bytes bytes of target data
 * @param kind element kind of the target type (for accumulates), OPAQUE for plain bytes
 */
public record RmaTarget(int rank, long disp, long bytes, ElementKind kind) {
}
