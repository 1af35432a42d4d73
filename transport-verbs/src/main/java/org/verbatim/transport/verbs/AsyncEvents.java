package org.verbatim.transport.verbs;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.verbatim.verbs.AsyncEvent;
import org.verbatim.verbs.Context;
import org.verbatim.verbs.Poll;
import org.verbatim.verbs.raw.ibv_context;

/**
 * The asynchronous-event thread of one device context: waits on the context's async fd with
 * {@code poll(2)} (so it can notice close), reads each event and hands SRQ limit events to the
 * transport, which posts more receive buffers even while the application computes (the paper's
 * receiver-driven flow control). Other events are logged.
 */
final class AsyncEvents implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncEvents.class);

    private final Context context;
    private final Runnable onSrqLimit;
    private final Thread thread;
    private volatile boolean running = true;

    AsyncEvents(Context context, Runnable onSrqLimit, String name) {
        this.context = context;
        this.onSrqLimit = onSrqLimit;
        this.thread = Thread.ofPlatform().daemon().name(name).start(this::run);
    }

    private void run() {
        int fd = ibv_context.async_fd(ibv_context.reinterpret(context.handle()));
        try {
            while (running) {
                if (!Poll.readable(fd, 100) || !running) {
                    continue;
                }
                AsyncEvent event = context.nextAsyncEvent();
                if (event.isSrqLimitReached()) {
                    onSrqLimit.run();
                } else {
                    LOG.debug("ib async event {} on {}", event.type(), context.name());
                }
            }
        } catch (Throwable t) {
            if (running) {
                LOG.warn("ib async-event thread of {} stopped: {}", context.name(), t.toString());
            }
        }
    }

    /**
     * Stops the thread and waits for it (it notices within one 100 ms poll, or when the SRQ
     * refill it is doing ends). Returns false if it is still running after 10 s: the caller must
     * then leave the device context open, since the thread may still be using it (closing it
     * under a thread inside ibv_get_async_event or posting to the SRQ would crash the process).
     */
    boolean stop() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    @Override
    public void close() {
        stop();
    }
}
