/* The C twin of org.verbatim.benchmarks.plain.StartupBarrier, for benchmarks/compare-tcp:
 * MPI_Init, a barrier, MPI_Finalize; rank 0 prints the longest MPI_Init and the wall clock
 * (ms since the epoch) after the barrier, in the same format ("JVM start" is process start). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static long long now_ms(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (long long) t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

int main(int argc, char **argv) {
    long long start = now_ms(CLOCK_MONOTONIC);
    MPI_Init(&argc, &argv);
    long long mine[2] = {now_ms(CLOCK_MONOTONIC) - start, now_ms(CLOCK_MONOTONIC) - start};
    long long max[2];
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "alltoall") == 0) {
        char out[8 * 1024], in[8 * 1024];
        memset(out, 0, sizeof out);
        MPI_Alltoall(out, 8, MPI_BYTE, in, 8, MPI_BYTE, MPI_COMM_WORLD);
    }
    MPI_Reduce(mine, max, 2, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("startup: %d ranks, MPI.Init max %lld ms, JVM start to Init done max %lld ms,"
               " barrier done at %lld\n", size, max[0], max[1], now_ms(CLOCK_REALTIME));
    MPI_Finalize();
    return 0;
}
