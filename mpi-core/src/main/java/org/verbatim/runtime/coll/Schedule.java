package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import org.verbatim.runtime.Engine;
import org.verbatim.runtime.base.ErrorClass;
import org.verbatim.runtime.base.Mode;
import org.verbatim.runtime.base.MpiError;
import org.verbatim.runtime.base.RequestState;

/**
 * One collective operation as a schedule of steps that the progress engine advances: sends and
 * receives are posted as soon as they are reached; a local step (a reduction, a copy) and an
 * explicit {@link #waitAll()} first wait for everything posted before them. Blocking and
 * nonblocking collectives are the same schedule; a nonblocking one completes without the user
 * calling test, because the engine polls it.
 */
public final class Schedule extends RequestState implements Engine.Poller {
    private static final byte SEND = 0, RECV = 1, LOCAL = 2, WAIT = 3;

    private CollGroup group;
    private final int tag;
    private final ArrayList<Object> steps = new ArrayList<>();
    private final ArrayList<RequestState> outstanding = new ArrayList<>();
    private final ArrayList<MemorySegment> expected = new ArrayList<>();
    private int pc;
    private boolean started;

    private record Comm(byte kind, CollGroup group, int peer, MemorySegment data) {
    }

    public Schedule(CollGroup group, int tag) {
        this.group = group;
        this.tag = tag;
    }

    public CollGroup group() {
        return group;
    }

    /**
     * Steps added from now on address {@code other} (ranks, peers and context): lets one
     * schedule span phases on different groups, as inter-communicator collectives do. Algorithms
     * see {@link #rank()} and {@link #size()} of the current group.
     */
    public Schedule using(CollGroup other) {
        this.group = other;
        return this;
    }

    public int rank() {
        return group.rank();
    }

    public int size() {
        return group.size();
    }

    private final ArrayList<MemorySegment> temps = new ArrayList<>();

    /**
     * Scratch memory for this collective: native (so large transfers from and into it are
     * single-copy), from the engine's pool, returned when the schedule ends. Not zeroed.
     */
    public MemorySegment temp(long bytes) {
        MemorySegment t = group.engine().borrow(bytes);
        temps.add(t);
        return t;
    }

    /**
     * Gives the scratch memory back for a schedule that will never start (its call failed while
     * it was being built).
     */
    public void discard() {
        if (!started) {
            releaseTemps();
        }
    }

    private void releaseTemps() {
        for (MemorySegment t : temps) {
            group.engine().giveBack(t);
        }
        temps.clear();
    }

    /** Sends {@code data} to group rank {@code peer}. */
    public Schedule send(int peer, MemorySegment data) {
        steps.add(new Comm(SEND, group, peer, data));
        return this;
    }

    /** Receives exactly {@code into.byteSize()} bytes from group rank {@code peer}. */
    public Schedule recv(int peer, MemorySegment into) {
        steps.add(new Comm(RECV, group, peer, into));
        return this;
    }

    /** Runs {@code step} once everything posted before it has completed. */
    public Schedule local(Runnable step) {
        steps.add(step);
        return this;
    }

    /** Waits for everything posted so far before posting more. */
    public Schedule waitAll() {
        steps.add(WAIT);
        return this;
    }

    /** Posts the first steps and hands the rest to the progress engine. */
    public Schedule start() {
        started = true;
        if (doWork() >= 0) {
            group.engine().addPoller(this);
        }
        return this;
    }

    /** Starts and waits for completion (blocking collectives). */
    public void run() {
        start();
        group.engine().await(this);
        if (error() != 0) {
            throw new MpiError(error(), failure);
        }
    }

    private String failure;

    @Override
    public int doWork() {
        if (isComplete()) {
            return -1;
        }
        int work = 0;
        while (true) {
            if (!drained()) {
                return work;
            }
            if (pc == steps.size()) {
                releaseTemps();
                markComplete();
                return -1;
            }
            Object step = steps.get(pc);
            if (step instanceof Comm c) {
                post(c);
                work++;
                pc++;
            } else if (step instanceof Runnable r) {
                pc++;
                r.run();
                work++;
            } else {
                pc++; // WAIT: drained() above has already waited
            }
            while (pc < steps.size() && steps.get(pc) instanceof Comm c) {
                post(c);
                work++;
                pc++;
            }
        }
    }

    private void post(Comm c) {
        CollGroup g = c.group;
        Engine e = g.engine();
        if (c.kind == SEND) {
            outstanding.add(e.p2p().send(g.context(), g.rank(), g.peers()[c.peer], tag,
                    c.data, null, Mode.STANDARD));
            expected.add(null);
        } else {
            outstanding.add(e.p2p().receive(g.context(), c.peer, tag, c.data, null, null));
            expected.add(c.data);
        }
    }

    /** True when every posted operation has completed; checks received lengths. */
    private boolean drained() {
        for (int i = outstanding.size() - 1; i >= 0; i--) {
            if (!outstanding.get(i).isComplete()) {
                return false;
            }
        }
        for (int i = 0; i < outstanding.size(); i++) {
            RequestState r = outstanding.get(i);
            MemorySegment into = expected.get(i);
            if (into != null && (r.error() != 0 || r.bytes() != into.byteSize())) {
                fail(r, into.byteSize());
            }
        }
        outstanding.clear();
        expected.clear();
        return true;
    }

    private void fail(RequestState r, long want) {
        statusError = r.error() == ErrorClass.ERR_TRUNCATE || r.bytes() != want
                ? ErrorClass.ERR_TRUNCATE : r.error();
        failure = "rank " + r.source() + " sent " + (r.error() == ErrorClass.ERR_TRUNCATE
                ? "more than" : Long.toString(r.bytes())) + " bytes where this rank expected "
                + want + ": counts or datatypes differ between ranks";
        pc = steps.size();
        steps.clear();
        outstanding.clear();
        expected.clear();
        releaseTemps();
        markComplete();
        throw new MpiError(statusError, failure);
    }

    /** Why the schedule failed, or null. */
    public String failure() {
        return failure;
    }

    public boolean started() {
        return started;
    }
}
