package org.verbatim.spi;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Several one-sided work requests to post in one call ({@link Endpoint#postList}), after verbs'
 * chained {@code ibv_send_wr} lists: a transport with {@link Capability#LIST_POST} hands them to
 * the device at once (one doorbell). Reused by the caller: {@link #clear()}, then add requests;
 * nothing is allocated once the list has grown to its working size. Each request completes on
 * its own, with its own work-request id.
 */
public final class WorkList {
    /** Request kinds. */
    public static final byte WRITE = 1;
    public static final byte WRITE_WITH_IMMEDIATE = 2;
    public static final byte READ = 3;

    private byte[] kinds;
    private MemorySegment[] locals;
    private long[] remoteAddresses;
    private long[] remoteKeys;
    private int[] immediates;
    private long[] wrIds;
    private int count;

    public WorkList(int initialCapacity) {
        int n = Math.max(1, initialCapacity);
        kinds = new byte[n];
        locals = new MemorySegment[n];
        remoteAddresses = new long[n];
        remoteKeys = new long[n];
        immediates = new int[n];
        wrIds = new long[n];
    }

    public WorkList clear() {
        Arrays.fill(locals, 0, count, null);
        count = 0;
        return this;
    }

    public WorkList write(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return add(WRITE, local, remoteAddress, remoteKey, 0, wrId);
    }

    public WorkList writeWithImmediate(MemorySegment local, long remoteAddress, long remoteKey,
                                       int immediate, long wrId) {
        return add(WRITE_WITH_IMMEDIATE, local, remoteAddress, remoteKey, immediate, wrId);
    }

    public WorkList read(MemorySegment local, long remoteAddress, long remoteKey, long wrId) {
        return add(READ, local, remoteAddress, remoteKey, 0, wrId);
    }

    private WorkList add(byte kind, MemorySegment local, long remoteAddress, long remoteKey,
                         int immediate, long wrId) {
        if (count == kinds.length) {
            int n = count * 2;
            kinds = Arrays.copyOf(kinds, n);
            locals = Arrays.copyOf(locals, n);
            remoteAddresses = Arrays.copyOf(remoteAddresses, n);
            remoteKeys = Arrays.copyOf(remoteKeys, n);
            immediates = Arrays.copyOf(immediates, n);
            wrIds = Arrays.copyOf(wrIds, n);
        }
        kinds[count] = kind;
        locals[count] = local;
        remoteAddresses[count] = remoteAddress;
        remoteKeys[count] = remoteKey;
        immediates[count] = immediate;
        wrIds[count] = wrId;
        count++;
        return this;
    }

    public int count() {
        return count;
    }

    public byte kind(int i) {
        return kinds[check(i)];
    }

    public MemorySegment local(int i) {
        return locals[check(i)];
    }

    public long remoteAddress(int i) {
        return remoteAddresses[check(i)];
    }

    public long remoteKey(int i) {
        return remoteKeys[check(i)];
    }

    public int immediate(int i) {
        return immediates[check(i)];
    }

    public long wrId(int i) {
        return wrIds[check(i)];
    }

    /**
     * Posts requests {@code from..count-1} one by one through the single-request calls: what a
     * transport without native list posting does. Returns how many were posted before the first
     * {@link PostStatus#RETRY}.
     */
    public int postEach(Endpoint endpoint, int from) {
        int posted = 0;
        for (int i = from; i < count; i++) {
            int st = switch (kinds[i]) {
                case WRITE -> endpoint.write(locals[i], remoteAddresses[i], remoteKeys[i], wrIds[i]);
                case WRITE_WITH_IMMEDIATE -> endpoint.writeWithImmediate(locals[i],
                        remoteAddresses[i], remoteKeys[i], immediates[i], wrIds[i]);
                case READ -> endpoint.read(locals[i], remoteAddresses[i], remoteKeys[i], wrIds[i]);
                default -> throw new IllegalStateException("unknown work request kind " + kinds[i]);
            };
            if (st != PostStatus.OK) {
                break;
            }
            posted++;
        }
        return posted;
    }

    private int check(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("request " + i + " of " + count);
        }
        return i;
    }
}
