package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/**
 * Neighbourhood collectives of topology communicators, linear with all requests posted at once.
 * Receives are posted in source order and sends in the order given; the caller orders the sends
 * so that repeated neighbours pair up as MPI defines (see mpi.NeighborCollectives).
 */
public final class Neighborhood {
    private Neighborhood() {
    }

    /**
     * @param sources      group ranks to receive from (MPI.PROC_NULL entries are skipped)
     * @param destinations group ranks to send to
     */
    public static Schedule exchange(Schedule s, int[] sources, MemorySegment[] into,
                                    int[] destinations, MemorySegment[] from, int procNull) {
        for (int i = 0; i < sources.length; i++) {
            if (sources[i] != procNull) {
                s.recv(sources[i], into[i]);
            }
        }
        for (int j = 0; j < destinations.length; j++) {
            if (destinations[j] != procNull) {
                s.send(destinations[j], from[j]);
            }
        }
        return s.waitAll();
    }
}
