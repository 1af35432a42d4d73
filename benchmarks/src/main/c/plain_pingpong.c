/* The C twin of org.verbatim.benchmarks.plain.PlainPingPong, for benchmarks/compare-coldstart:
 * the same loop, the same arguments and output (size, warm-up, timed, direct|array ignored,
 * trace). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000000000LL + t.tv_nsec;
}

static double average(const long long *trips, int from, int to) {
    long long sum = 0;
    for (int i = from; i < to; i++) sum += trips[i];
    return to > from ? sum / 1e3 / (to - from) / 2 : 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size = argc > 1 ? atoi(argv[1]) : 8;
    int warmup = argc > 2 ? atoi(argv[2]) : 4000;
    int timed = argc > 3 ? atoi(argv[3]) : 20000;
    int trace = argc > 5 && strcmp(argv[5], "trace") == 0;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int total = warmup + timed;
    long long *trips = calloc(total, sizeof(long long));
    char *buf = malloc(size > 0 ? size : 1);
    memset(buf, 0, size > 0 ? size : 1);
    long long start = 0;
    for (int i = 0; i < total; i++) {
        if (i == warmup) start = now_ns();
        long long t0 = trace ? now_ns() : 0;
        if (rank == 0) {
            MPI_Send(buf, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
        if (trace) trips[i] = now_ns() - t0;
    }
    long long elapsed = now_ns() - start;
    if (rank == 0) {
        printf("size %d B, direct, %d warm-up + %d timed round trips: %.3f us per half round trip\n",
               size, warmup, timed, elapsed / 1e3 / timed / 2);
        if (trace) {
            printf("first 1000: %.3f us; first 20000: %.3f us (half round trips, from the first message)\n",
                   average(trips, 0, total < 1000 ? total : 1000), average(trips, 0, total < 20000 ? total : 20000));
            printf("first round trips (us):");
            for (int i = 0; i < 10 && i < total; i++) printf(" %.1f", trips[i] / 1e3);
            printf("\n# trace: from to average-half-round-trip-us\n");
            int from = 0;
            for (int length = 10; from < total; length *= 2) {
                int to = from + length < total ? from + length : total;
                printf("trace %d %d %.3f\n", from, to, average(trips, from, to));
                from = to;
            }
        }
    }
    free(trips);
    free(buf);
    MPI_Finalize();
    return 0;
}
