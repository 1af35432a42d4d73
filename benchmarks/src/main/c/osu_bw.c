/*
 * Bandwidth with a window of nonblocking sends and a 4-byte ack (osu_bw), and with
 * -DBIDIRECTIONAL both ways at once (osu_bibw): the C twin of OsuBandwidth / OsuBiBandwidth.
 */
#include "osu_common.h"

#ifdef BIDIRECTIONAL
#define TITLE "OSU-style MPI Bi-Directional Bandwidth Test (Verbatim benchmarks)"
#define PROGRAM "osu_bibw"
#define BOTH_WAYS 1
#else
#define TITLE "OSU-style MPI Bandwidth Test (Verbatim benchmarks)"
#define PROGRAM "osu_bw"
#define BOTH_WAYS 0
#endif

int main(int argc, char **argv) {
    osu_options o;
    int rank;
    MPI_Init(&argc, &argv);
    if (osu_parse(argc, argv, 1, &o) || !osu_two_ranks(PROGRAM)) {
        MPI_Finalize();
        return 2;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int peer = 1 - rank;
    char *s = osu_buffer(o.max_size, 'a'), *r = osu_buffer(o.max_size, 'b');
    MPI_Request *sends = malloc(sizeof(MPI_Request) * o.window);
    MPI_Request *recvs = malloc(sizeof(MPI_Request) * o.window);
    if (rank == 0) osu_header(TITLE, "Bandwidth (MB/s)", o.batches);
    for (long size = o.min_size; size <= o.max_size; size = osu_next(size)) {
        int per_batch = osu_per_batch(&o, size), warmup = osu_warmup(&o, size);
        double start = 0, best = 1e300;
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < warmup + o.batches * per_batch; i++) {
            if (i >= warmup && (i - warmup) % per_batch == 0) {
                double now = MPI_Wtime();
                if (i > warmup && now - start < best) best = now - start;
                start = now;
            }
            if (BOTH_WAYS) {
                for (int w = 0; w < o.window; w++)
                    MPI_Irecv(r, (int) size, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &recvs[w]);
                for (int w = 0; w < o.window; w++)
                    MPI_Isend(s, (int) size, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &sends[w]);
                MPI_Waitall(o.window, sends, MPI_STATUSES_IGNORE);
                MPI_Waitall(o.window, recvs, MPI_STATUSES_IGNORE);
            } else if (rank == 0) {
                for (int w = 0; w < o.window; w++)
                    MPI_Isend(s, (int) size, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &sends[w]);
                MPI_Waitall(o.window, sends, MPI_STATUSES_IGNORE);
                MPI_Recv(r, 4, MPI_BYTE, peer, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                for (int w = 0; w < o.window; w++)
                    MPI_Irecv(r, (int) size, MPI_BYTE, peer, 100, MPI_COMM_WORLD, &recvs[w]);
                MPI_Waitall(o.window, recvs, MPI_STATUSES_IGNORE);
                MPI_Send(s, 4, MPI_BYTE, peer, 101, MPI_COMM_WORLD);
            }
        }
        double elapsed = MPI_Wtime() - start;
        if (elapsed < best) best = elapsed;
        if (rank == 0)
            osu_row(size, (double) size * per_batch * o.window * (BOTH_WAYS ? 2 : 1) / 1e6 / best);
    }
    free(sends);
    free(recvs);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
