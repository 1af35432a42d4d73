package org.verbatim.runtime.ext;

/**
 * The runtime's extension registry (after UCX's {@code ucp_am_register} and
 * {@code uct_completion_t}): where protocols, in mpi-core or in modules outside it, register
 * what they handle. The runtime's completion handler dispatches through it; nothing is
 * dispatched by closed code.
 *
 * <ul>
 *   <li><b>Message kinds</b>: the first byte of every eager message. Kinds 1..31 belong to the
 *       point-to-point protocols of mpi-core; {@value #FIRST_EXTENSION_KIND}..
 *       {@value #LAST_EXTENSION_KIND} are handed out to extensions; 0xF0..0xFF are reserved
 *       for transport-internal messages (the RDMA emulation layer) that never reach the
 *       runtime.</li>
 *   <li><b>Immediates</b>: the 32-bit write-with-immediate values, in ranges given by a value
 *       and a mask (every immediate {@code i} with {@code (i & mask) == value}). RPUT owns bit 31.
 *       Ranges may not overlap.</li>
 *   <li><b>Completions</b>: a tracked work-request id calls its callback with the status.</li>
 *   <li><b>Pending work</b>: one queue for everything a transport refused for now.</li>
 * </ul>
 *
 * An eager message of a kind nobody registered, or an immediate outside every range, ends the
 * job with a message naming the kind and the sender: never a silent drop.
 *
 * <p>Threading: call the registration methods during start-up ({@link RuntimeExtension#start});
 * {@link #track}, {@link #untrack} and {@link #pending} run under the runtime's lock.
 */
public interface Dispatch {
    int FIRST_EXTENSION_KIND = 32;
    int LAST_EXTENSION_KIND = 0xEF;

    /** Registers {@code handler} for message kind {@code kind}; a kind taken already is refused. */
    void registerKind(int kind, String owner, MessageHandler handler);

    /**
     * Lets messages of {@code kind} (registered already) be received straight into place on a
     * stream transport: {@code handler} names where each one's tail goes. One handler a kind.
     */
    void registerPlacement(int kind, PlacementHandler handler);

    /** Registers {@code handler} for the first free extension kind and returns it. */
    int allocateKind(String owner, MessageHandler handler);

    /**
     * Names the registered kind that most messages carry (the point-to-point eager message):
     * its handler is called from a call site of its own, which sees one handler class and so
     * is bound (and may be inlined) by the JIT, where the call through the table of kinds sees
     * them all. One kind at a time; the last call wins. A kind with no handler is refused.
     */
    void preferKind(int kind);

    /**
     * Registers {@code handler} for every immediate {@code i} with {@code (i & mask) == value}.
     * A range that overlaps one registered before is refused.
     */
    void registerImmediates(int value, int mask, String owner, ImmediateHandler handler);

    /** A work-request id whose completion calls {@code callback}; valid until {@link #untrack}. */
    long track(CompletionCallback callback);

    /** Forgets a tracked id (late completions of it are then an error). */
    void untrack(long wrId);

    /** Queues work to retry on every progress pass until it reports done. */
    void pending(Retryable work);

    /** Items queued for {@code world} that keep its order (see {@link Retryable#orderedPeer}). */
    int pendingFor(int world);
}
