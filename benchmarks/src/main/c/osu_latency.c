/* Ping-pong latency, half the round trip: the C twin of OsuLatency. */
#include "osu_common.h"

int main(int argc, char **argv) {
    osu_options o;
    int rank;
    MPI_Init(&argc, &argv);
    if (osu_parse(argc, argv, 0, &o) || !osu_two_ranks("osu_latency")) {
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *s = osu_buffer(o.max_size, 'a'), *r = osu_buffer(o.max_size, 'b');
    if (rank == 0) osu_header("OSU-style MPI Latency Test (Verbatim benchmarks)", "Latency (us)");
    for (long size = o.min_size; size <= o.max_size; size = osu_next(size)) {
        int iterations = osu_iterations(&o, size), warmup = osu_warmup(&o, size);
        double start = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            for (int i = 0; i < warmup + iterations; i++) {
                if (i == warmup) start = MPI_Wtime();
                MPI_Send(s, (int) size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(r, (int) size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            osu_row(size, (MPI_Wtime() - start) * 1e6 / (2.0 * iterations));
        } else {
            for (int i = 0; i < warmup + iterations; i++) {
                MPI_Recv(r, (int) size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(s, (int) size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
    }
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
