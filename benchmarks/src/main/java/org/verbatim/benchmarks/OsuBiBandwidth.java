package org.verbatim.benchmarks;

import mpi.MPIException;

/**
 * Bidirectional bandwidth, as OSU's osu_bibw: both ranks start a window of nonblocking receives
 * and a window of nonblocking sends to each other and wait for all of them; the figure counts
 * the bytes moved both ways. MB/s with MB = 10^6 bytes.
 */
public final class OsuBiBandwidth {
    public static void main(String[] args) throws MPIException {
        OsuBandwidth.run("OsuBiBandwidth", "OSU-style MPI Bi-Directional Bandwidth Test"
                + " (Verbatim benchmarks)", true, args);
    }
}
