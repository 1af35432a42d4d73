package org.verbatim.runtime.ext;

/**
 * A module outside mpi-core that plugs protocols into the runtime (the one-sided module, the
 * datatype schemes), found with {@link java.util.ServiceLoader}
 * (META-INF/services/org.verbatim.runtime.ext.RuntimeExtension) and started once per process
 * after the transports are open, in the same order on every rank.
 */
public interface RuntimeExtension {
    /** Short name, for messages and the registry's owner names. */
    String name();

    /** Registers handlers with {@code context.dispatch()}; may keep the context. */
    void start(ExtensionContext context);

    /**
     * The extension's profiler counters now ({@code verbatim.core.profile}), combined over the
     * ranks like the transports'. The default has none.
     */
    default java.util.List<org.verbatim.spi.ProfileCounter> profileCounters() {
        return java.util.List.of();
    }

    /** Called at finalize, before the transports close. */
    default void close() {
    }
}
