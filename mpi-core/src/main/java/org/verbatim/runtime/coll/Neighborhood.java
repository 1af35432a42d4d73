package org.verbatim.runtime.coll;

import java.lang.foreign.MemorySegment;

/**
 * Neighbourhood collectives of topology communicators, linear with all requests posted at once.
 * Receives are posted in source order and sends in destination order; with a tag offset per
 * neighbour slot ({@code recvTags}/{@code sendTags}) so that, on a Cartesian grid where one rank
 * is both neighbours of a dimension, data sent in the + direction lands in the peer's - slot.
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
