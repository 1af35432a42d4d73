/* The C twin of org.verbatim.benchmarks.plain.PlainWindow, for benchmarks/compare-coldstart:
 * windows of MPI_Isend / MPI_Irecv completed by MPI_Waitall, then a 4-byte answer. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size = argc > 1 ? atoi(argv[1]) : 8;
    int window = argc > 2 ? atoi(argv[2]) : 64;
    int windows = argc > 3 ? atoi(argv[3]) : 200;
    int warmup_windows = argc > 4 ? atoi(argv[4]) : 10;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char **bufs = malloc(window * sizeof(char *));
    for (int i = 0; i < window; i++) bufs[i] = calloc(size > 0 ? size : 1, 1);
    char ack[4] = {0};
    MPI_Request *requests = malloc(window * sizeof(MPI_Request));
    long long start = 0;
    for (int w = 0; w < warmup_windows + windows; w++) {
        if (w == warmup_windows) start = now_ns();
        if (rank == 0) {
            for (int i = 0; i < window; i++) MPI_Isend(bufs[i], size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &requests[i]);
            MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
            MPI_Recv(ack, 4, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            for (int i = 0; i < window; i++) MPI_Irecv(bufs[i], size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &requests[i]);
            MPI_Waitall(window, requests, MPI_STATUSES_IGNORE);
            MPI_Send(ack, 4, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
        }
    }
    double seconds = (now_ns() - start) / 1e9;
    if (rank == 0) {
        double messages = (double) windows * window;
        printf("size %d B, window %d, %d windows: %.0f messages/s, %.2f MB/s\n",
               size, window, windows, messages / seconds, messages * size / seconds / 1e6);
    }
    MPI_Finalize();
    return 0;
}
