package org.verbatim.spi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A reference transport with every optional operation, for ranks that are threads of one JVM: it
 * checks the conformance suite itself, both ways. Run correct, it must pass every section (so a
 * section that fails is the suite's bug); run with a {@link Defect}, the section written for that
 * defect must fail (so the section can fail). Native mode does one-sided operations in the
 * initiator's thread at post time, checked against the target's key table; emulated mode sends
 * them to the target's inbox, where the target's progress carries them out.
 */
final class ReferenceFabric implements TransportProvider {
    /** Deliberate bugs, one per contract the suite must catch. */
    enum Defect {
        /** Operations ignore keys, ranges and access rights. */
        NO_ACCESS_CHECK,
        /** An aborted claim is sent anyway. */
        ABORT_DELIVERS,
        /** Advertised emulated, but done at post time without the target. */
        EMULATED_BUT_SYNCHRONOUS,
        /** Advertised native, but carried out by the target's progress. */
        NATIVE_BUT_TARGET_DOES_IT,
        /** Fetch-and-add returns the new value instead of the old one. */
        FETCH_RETURNS_NEW,
        /** Requests posted through a list complete twice. */
        LIST_COMPLETES_TWICE,
        /** A gather write leaves out its last entry. */
        GATHER_DROPS_LAST_ENTRY,
        /**
         * Native writes are placed only when their completion is delivered (one per progress
         * call), and a flush completes ahead of them.
         */
        FLUSH_EARLY
    }

    static final int MAX_EAGER = 2048;
    static final int INBOX_MESSAGES = 64;
    static final int IN_FLIGHT = 16;
    static final int MAX_IOV = 64;
    static final int MAX_LIST = 32;
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final Map<String, Job> JOBS = new ConcurrentHashMap<>();

    final boolean emulated;
    final Set<Defect> defects;

    ReferenceFabric(boolean emulated, Defect... defects) {
        this.emulated = emulated;
        this.defects = defects.length == 0 ? EnumSet.noneOf(Defect.class) : EnumSet.of(defects[0], defects);
    }

    @Override
    public String name() {
        return "reference";
    }

    @Override
    public int priority() {
        return 99;
    }

    @Override
    public Optional<String> unavailabilityCause() {
        return Optional.empty();
    }

    @Override
    public Transport open(TransportContext context) {
        Job job = JOBS.computeIfAbsent(context.bootstrap().jobId(), id -> new Job(context.size()));
        return new ReferenceNode(this, job, context.bootstrap().jobId(), context.rank(), context.handler());
    }

    record Registered(MemorySegment segment, int access) { }

    record Message(int source, byte[] bytes) { }

    record Immediate(int source, int immediate) { }

    record Request(int source, Op op) { }

    record Done(long wrId, int status) { }

    /** A completion to deliver at the next progress; {@code deferred} is placed first. */
    record Pending(long wrId, int status, boolean counted, int peer, Op deferred) { }

    /** One one-sided operation: its local side is fixed at post time. */
    static final class Op {
        int kind;
        MemorySegment[] local;
        long remoteAddress;
        long remoteKey;
        long operand;
        long desired;
        boolean withImmediate;
        int immediate;
        long wrId;

        long length() {
            long n = 0;
            for (MemorySegment s : local) {
                n += s.byteSize();
            }
            return n;
        }
    }

    static final int WRITE = 1;
    static final int READ = 2;
    static final int FETCH_AND_ADD = 3;
    static final int COMPARE_AND_SWAP = 4;
    static final int FLUSH = 5;

    static final class Job {
        final ConcurrentLinkedQueue<Object>[] inboxes;
        final AtomicInteger[] messages;
        final Map<Long, Registered>[] keys;
        final AtomicLong nextKey = new AtomicLong(0x1000);
        final AtomicInteger open;

        @SuppressWarnings("unchecked")
        Job(int size) {
            inboxes = new ConcurrentLinkedQueue[size];
            messages = new AtomicInteger[size];
            keys = new Map[size];
            for (int i = 0; i < size; i++) {
                inboxes[i] = new ConcurrentLinkedQueue<>();
                messages[i] = new AtomicInteger();
                keys[i] = new ConcurrentHashMap<>();
            }
            open = new AtomicInteger(size);
        }
    }
}
