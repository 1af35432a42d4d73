package org.verbatim.transport.shm;

import java.lang.foreign.MemorySegment;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.IoVector;
import org.verbatim.spi.PostStatus;
import org.verbatim.spi.WorkList;

/**
 * RDMA by cross-memory attach: every write, read, gather write, scatter read and run of a work
 * list is one {@code process_vm_writev/readv} made while posting, so it is complete when posted
 * and its completion waits in {@link LocalCompletions} for the next progress. A write with
 * immediate then puts an IMMEDIATE record into the peer's inbox (through the backlog if that is
 * not empty, so that it never overtakes what was posted before).
 *
 * <p>Errors complete the operation instead of throwing: a key, range or right that the peer's key
 * table ({@link KeyTable}, read with plain loads) does not allow, or an address the kernel cannot
 * reach in the peer (EFAULT), completes with REMOTE_ACCESS_ERROR; a peer that is gone (ESRCH) with
 * PEER_GONE, and the peer's failure is reported as well. A key beyond the table (more live
 * registrations than it has slots) sends the operation the emulated way, where the owner checks.
 */
final class CmaOps {
    private final ShmTransport transport;
    private final CrossMemoryAttach cma;
    private final LocalCompletions completions;
    private final EmulatedOps emulated;

    CmaOps(ShmTransport transport, CrossMemoryAttach cma, LocalCompletions completions,
           EmulatedOps emulated) {
        this.transport = transport;
        this.cma = cma;
        this.completions = completions;
        this.emulated = emulated;
    }

    int write(ShmEndpoint endpoint, MemorySegment local, IoVector gather, long remoteAddress,
              long remoteKey, boolean withImmediate, int immediate, long wrId) {
        if (KeyTable.beyond(remoteKey)) {
            return emulated.write(endpoint, local, gather, remoteAddress, remoteKey, withImmediate,
                    immediate, wrId);
        }
        if (!completions.reserve(1)) {
            return endpoint.retry();
        }
        final long length = gather == null ? local.byteSize() : gather.totalLength();
        if (!endpoint.keys.allows(remoteKey, remoteAddress, length, Access.REMOTE_WRITE)) {
            completions.complete(wrId, CompletionStatus.REMOTE_ACCESS_ERROR);
            return PostStatus.OK;
        }
        final int e = gather == null ? cma.write(endpoint.pid, local, remoteAddress)
                : cma.writeGather(endpoint.pid, gather, remoteAddress);
        if (e != 0) {
            completions.complete(wrId, failed(endpoint, e, "process_vm_writev", remoteAddress));
            return PostStatus.OK;
        }
        written(endpoint, withImmediate, immediate, wrId);
        return PostStatus.OK;
    }

    int read(ShmEndpoint endpoint, MemorySegment local, IoVector scatter, long remoteAddress,
             long remoteKey, long wrId) {
        if (KeyTable.beyond(remoteKey)) {
            return emulated.read(endpoint, local, scatter, remoteAddress, remoteKey, wrId);
        }
        if (!completions.reserve(1)) {
            return endpoint.retry();
        }
        final long length = scatter == null ? local.byteSize() : scatter.totalLength();
        if (!endpoint.keys.allows(remoteKey, remoteAddress, length, Access.REMOTE_READ)) {
            completions.complete(wrId, CompletionStatus.REMOTE_ACCESS_ERROR);
            return PostStatus.OK;
        }
        final int e = scatter == null ? cma.read(endpoint.pid, local, remoteAddress)
                : cma.readScatter(endpoint.pid, scatter, remoteAddress);
        completions.complete(wrId, e == 0 ? CompletionStatus.OK
                : failed(endpoint, e, "process_vm_readv", remoteAddress));
        return PostStatus.OK;
    }

    /**
     * Posts {@code list} from {@code from} on: each run of consecutive writes (with or without
     * immediate) or of consecutive reads, at most {@link CrossMemoryAttach#MAX_LIST} long, from
     * native memory and with keys that allow it, goes out as one system call; any other request
     * is posted alone (and refused or completed in error as alone). A run the kernel stops short on is
     * posted again one request at a time, which sorts out which of them failed.
     */
    int postList(ShmEndpoint endpoint, WorkList list, int from) {
        int i = from;
        final int count = list.count();
        while (i < count) {
            final boolean write = list.kind(i) != WorkList.READ;
            final int needed = write ? Access.REMOTE_WRITE : Access.REMOTE_READ;
            int end = i;
            final int limit = Math.min(count, i + Math.min(CrossMemoryAttach.MAX_LIST,
                    completions.available()));
            while (end < limit && (list.kind(end) != WorkList.READ) == write
                    && list.local(end).isNative()
                    && endpoint.keys.allows(list.remoteKey(end), list.remoteAddress(end),
                            list.local(end).byteSize(), needed)) {
                end++;
            }
            if (end - i < 2) {
                if (postOne(endpoint, list, i) != PostStatus.OK) {
                    break;
                }
                i++;
                continue;
            }
            completions.reserve(end - i);
            if (!cma.postRun(endpoint.pid, list, i, end - i, write)) {
                completions.unreserve(end - i);
                for (; i < end; i++) {
                    if (postOne(endpoint, list, i) != PostStatus.OK) {
                        return i - from;
                    }
                }
                continue;
            }
            for (; i < end; i++) {
                if (write) {
                    written(endpoint, list.kind(i) == WorkList.WRITE_WITH_IMMEDIATE,
                            list.immediate(i), list.wrId(i));
                } else {
                    completions.complete(list.wrId(i), CompletionStatus.OK);
                }
            }
        }
        return i - from;
    }

    /** Posts request {@code i} alone, through the endpoint (with every check a single post has). */
    private static int postOne(ShmEndpoint endpoint, WorkList list, int i) {
        return switch (list.kind(i)) {
            case WorkList.WRITE -> endpoint.write(list.local(i), list.remoteAddress(i),
                    list.remoteKey(i), list.wrId(i));
            case WorkList.WRITE_WITH_IMMEDIATE -> endpoint.writeWithImmediate(list.local(i),
                    list.remoteAddress(i), list.remoteKey(i), list.immediate(i), list.wrId(i));
            case WorkList.READ -> endpoint.read(list.local(i), list.remoteAddress(i),
                    list.remoteKey(i), list.wrId(i));
            default -> throw new IllegalStateException("unknown work request kind " + list.kind(i));
        };
    }

    /** The data is in place (one completion slot reserved): notify, then complete. */
    private void written(ShmEndpoint endpoint, boolean withImmediate, int immediate, long wrId) {
        if (withImmediate && (endpoint.backlogHead != null
                || !emulated.postImmediate(endpoint, immediate))) {
            emulated.immediateLater(endpoint, immediate, wrId);
            return;
        }
        completions.complete(wrId, CompletionStatus.OK);
    }

    private int failed(ShmEndpoint endpoint, int errno, String call, long address) {
        return switch (errno) {
            case LinuxSyscalls.ESRCH -> {
                transport.reportFailure(endpoint.peer(), "process " + endpoint.pid + " of rank "
                        + endpoint.peer() + " is gone (" + call + ": "
                        + LinuxSyscalls.describe(errno) + ")");
                yield CompletionStatus.PEER_GONE;
            }
            case LinuxSyscalls.EFAULT -> CompletionStatus.REMOTE_ACCESS_ERROR;
            default -> throw new IllegalStateException(call + " at 0x" + Long.toHexString(address)
                    + " in rank " + endpoint.peer() + " failed: " + LinuxSyscalls.describe(errno));
        };
    }
}
