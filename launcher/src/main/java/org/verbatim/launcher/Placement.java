package org.verbatim.launcher;

import java.util.ArrayList;
import java.util.List;

/**
 * Which ranks run on which host: by slot, as Open MPI maps by default. Ranks fill the first
 * host's slots, then the next host's, in the order the hosts were given; each host gets one
 * contiguous range of ranks. More ranks than slots is an error unless the job may oversubscribe;
 * then the extra ranks are dealt one per host in turn (each host's range stays contiguous).
 */
final class Placement {
    /** Ranks {@code first..last} of the job run on {@code host}. */
    record HostRanks(String host, int first, int last) {
        int count() {
            return last - first + 1;
        }
    }

    private Placement() {
    }

    /** The hosts that get at least one of {@code ranks} ranks, each with its range. */
    static List<HostRanks> bySlot(List<HostList.Entry> hosts, int ranks, boolean oversubscribe) {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("no hosts to place ranks on");
        }
        int total = hosts.stream().mapToInt(HostList.Entry::slots).sum();
        if (ranks > total && !oversubscribe) {
            throw new IllegalArgumentException("-np " + ranks + " needs more slots than the " + total + " the hosts have ("
                    + describe(hosts) + "); give more slots (h:N), fewer ranks, or --oversubscribe");
        }
        int[] counts = new int[hosts.size()];
        int left = ranks;
        for (int i = 0; i < counts.length && left > 0; i++) {
            counts[i] = Math.min(hosts.get(i).slots(), left);
            left -= counts[i];
        }
        for (int i = 0; left > 0; i = (i + 1) % counts.length) {
            counts[i]++;
            left--;
        }
        List<HostRanks> out = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                out.add(new HostRanks(hosts.get(i).host(), next, next + counts[i] - 1));
                next += counts[i];
            }
        }
        return out;
    }

    private static String describe(List<HostList.Entry> hosts) {
        StringBuilder b = new StringBuilder();
        for (HostList.Entry e : hosts) {
            b.append(b.isEmpty() ? "" : ",").append(e.host()).append(':').append(e.slots());
        }
        return b.toString();
    }
}
