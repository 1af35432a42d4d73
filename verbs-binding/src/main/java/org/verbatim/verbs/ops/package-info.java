/**
 * Java implementations of the {@code static inline} verbs and the macro verbs of
 * {@code infiniband/verbs.h}, which have no exported symbol: calls through {@code struct
 * ibv_context_ops} and {@code struct verbs_context}, with every offset taken from the generated
 * layouts in {@link org.verbatim.verbs.raw} and the function pointers cached per context.
 */
package org.verbatim.verbs.ops;
