package org.verbatim.benchmarks.layers;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.verbatim.runtime.ext.ExtensionContext;
import org.verbatim.runtime.ext.RuntimeExtension;
import org.verbatim.spi.Endpoint;
import org.verbatim.spi.PostStatus;

/**
 * A runtime extension for {@link LayeredPingPong}: one message kind of its own, sent straight
 * through a transport endpoint and counted by its handler, so that a ping-pong can run on the
 * engine's progress pass and the transport alone, without the MPI API, matching or requests.
 * Found in every process that has the benchmarks jar, it registers its kind only when the JVM
 * runs with {@code -D}{@value #ENABLE}{@code =true}: a kind taken in every benchmark job would move
 * the kinds that extensions after it allocate, and jobs that connect to each other (connect and
 * accept, spawn) must agree on those.
 */
public final class RawMessages implements RuntimeExtension {
    /** The system property that turns the extension on. */
    public static final String ENABLE = "org.verbatim.benchmarks.rawMessages";

    private static volatile RawMessages started;

    private ExtensionContext ctx;
    private int kind;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment header = arena.allocate(8, 8);
    /** Messages of this kind received so far (read only by the waiting thread). */
    long received;

    @Override
    public String name() {
        return "bench-raw";
    }

    @Override
    public void start(ExtensionContext context) {
        if (!Boolean.getBoolean(ENABLE)) {
            return;
        }
        this.ctx = context;
        this.kind = context.dispatch().allocateKind("bench-raw", this::onMessage);
        header.set(ValueLayout.JAVA_BYTE, 0, (byte) kind);
        started = this;
    }

    /** The extension of this process (after MPI.Init), or null. */
    static RawMessages get() {
        return started;
    }

    private void onMessage(int sourceWorld, MemorySegment m, long offset, long length) {
        received++;
    }

    /** Sends an 8-byte header and {@code payload} to world rank {@code peer}, retrying while refused. */
    void send(Endpoint e, MemorySegment payload) {
        ctx.lockRuntime();
        try {
            while (e.send(header, payload) != PostStatus.OK) {
                ctx.progress();
            }
        } finally {
            ctx.unlockRuntime();
        }
    }

    /** The engine behind the extension context (the runtime's only implementation of it). */
    org.verbatim.runtime.Engine engine() {
        return (org.verbatim.runtime.Engine) ctx;
    }

    Endpoint endpoint(int peer) {
        return ctx.endpoint(peer);
    }

    /** Progress passes until {@code count} messages have arrived in total. */
    void awaitReceived(long count) {
        while (received < count) {
            ctx.progress();
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
