package org.verbatim.spi;

/**
 * How a transport lets an idle process sleep until its next event (idle strategy "block"):
 * the runtime's waiter arms every open transport's source, then sleeps on all of them at once
 * (poll(2) over their {@link #fd()}s), or, when exactly one source is armed, lets it
 * {@link #sleep} in its own way (a futex, a completion channel). Sleeping is only ever a
 * saving of processor time: a source that wakes up without work is harmless.
 */
public interface WaitSource {
    /**
     * Prepares to sleep: asks peers or the device to signal the next event (sets the "sleeping"
     * flag a sender checks, requests a completion notification). Returns false when work is
     * already pending, in which case the runtime does not sleep (and calls {@link #disarm()}).
     */
    boolean arm();

    /**
     * A file descriptor that becomes readable on the next event once {@link #arm()}ed, or -1 when
     * the source can only sleep on its own (then it cannot be combined with others and the
     * runtime parks briefly instead).
     */
    int fd();

    /** Sleeps on this source alone until an event or {@code maxNanos}; called after arm(). */
    void sleep(long maxNanos);

    /**
     * True while this source can have no event at all (a socket transport with no connection
     * yet): the runtime then leaves it out and sleeps on the others alone, so an open but unused
     * transport does not turn a combined sleep into short parks. The default is false.
     */
    default boolean dormant() {
        return false;
    }

    /** Called after every sleep (or a refused arm): clears the flags, consumes the event. */
    void disarm();
}
