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
    if (rank == 0) osu_header("OSU-style MPI Latency Test (Verbatim benchmarks)", "Latency (us)", o.batches);
    for (long size = o.min_size; size <= o.max_size; size = osu_next(size)) {
        int per_batch = osu_per_batch(&o, size), warmup = osu_warmup(&o, size);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            for (int i = 0; i < warmup; i++) {
                MPI_Send(s, (int) size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(r, (int) size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            double best = 1e300;
            for (int b = 0; b < o.batches; b++) {
                double start = MPI_Wtime();
                for (int i = 0; i < per_batch; i++) {
                    MPI_Send(s, (int) size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                    MPI_Recv(r, (int) size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }
                double t = MPI_Wtime() - start;
                if (t < best) best = t;
            }
            osu_row(size, best * 1e6 / (2.0 * per_batch));
        } else {
            for (int i = 0; i < warmup + o.batches * per_batch; i++) {
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
