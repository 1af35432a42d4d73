/* The C twin of org.verbatim.benchmarks.plain.VectorDatatype, for benchmarks/compare-datatypes:
 * the datatype paper's tests on the same layouts, the same arguments and the same output.
 *
 *   datatype_vector pack      [columns] [megabytes]  MPI_Pack / MPI_Unpack throughput (rank 0)
 *   datatype_vector latency   [columns] [iterations] vector ping-pong, ranks 0 and 1
 *   datatype_vector bandwidth [columns] [windows]    100-message window, ranks 0 -> 1
 *   datatype_vector alltoall  [lasts]   [iterations] MPI_Alltoall of the growing struct, all ranks
 *
 * The vector: x columns of a 128 x 4096 int matrix, MPI_Type_vector(128, x, 4096, MPI_INT);
 * "contiguous" is always the same bytes as 128 * x MPI_INTs, measured in the same run.
 * The struct (the paper's figure 10): blocks of 1, 2, 4, ..., last ints, each followed by a gap
 * as long as itself (none after the last), MPI_Type_create_struct of MPI_INTs.
 * Output, one line per point after a '#' header: "<mode> <x> <bytes> <vector> <contiguous>
 * <ratio>", where pack prints "pack <x> <bytes> <pack GB/s> <unpack GB/s> <contiguous pack GB/s>
 * <pack/contiguous>" (GB = 10^9 B), latency and alltoall microseconds (ratio vector /
 * contiguous, lower is better), bandwidth MB/s with MB = 2^20 B as in the paper (ratio
 * contiguous / vector: the time multiple, lower is better). Every mode runs its list of points
 * twice and prints the second pass only (the Java twin's first pass warms its JIT up). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROWS 128
#define COLS 4096
#define WINDOW 100

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int parse_list(const char *s, int *out, int max) {
    int n = 0;
    char *copy = strdup(s), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save))
        out[n++] = atoi(tok);
    free(copy);
    return n;
}

/* Average half round trip (us) of count x type, after a tenth of the iterations of warm-up. */
static double ping_pong(int rank, void *buf, int count, MPI_Datatype type, int iterations) {
    int warmup = iterations / 10 > 10 ? iterations / 10 : 10;
    double start = 0;
    for (int i = 0; i < warmup + iterations; i++) {
        if (i == warmup) {
            MPI_Barrier(MPI_COMM_WORLD);
            start = now_s();
        }
        if (rank == 0) {
            MPI_Send(buf, count, type, 1, 7, MPI_COMM_WORLD);
            MPI_Recv(buf, count, type, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, count, type, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, count, type, 0, 7, MPI_COMM_WORLD);
        }
    }
    return (now_s() - start) * 1e6 / iterations / 2;
}

/* MB/s (2^20) of windows of WINDOW messages 0 -> 1, each window closed by a 4-byte reply. */
static double window_bw(int rank, void *buf, int count, MPI_Datatype type, long bytes, int windows) {
    static MPI_Request req[WINDOW];
    static MPI_Status st[WINDOW];
    int ack = 0;
    int warmup = windows / 10 > 2 ? windows / 10 : 2;
    double start = 0;
    for (int w = 0; w < warmup + windows; w++) {
        if (w == warmup) {
            MPI_Barrier(MPI_COMM_WORLD);
            start = now_s();
        }
        if (rank == 0) {
            for (int i = 0; i < WINDOW; i++)
                MPI_Isend(buf, count, type, 1, 9, MPI_COMM_WORLD, &req[i]);
            MPI_Waitall(WINDOW, req, st);
            MPI_Recv(&ack, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            for (int i = 0; i < WINDOW; i++)
                MPI_Irecv(buf, count, type, 0, 9, MPI_COMM_WORLD, &req[i]);
            MPI_Waitall(WINDOW, req, st);
            MPI_Send(&ack, 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
        }
    }
    double seconds = now_s() - start;
    return (double) bytes * WINDOW * windows / seconds / (1 << 20);
}

/* Times n calls of MPI_Pack (which = 0), MPI_Unpack (1) or MPI_Pack of the contiguous ints (2). */
static double pack_loop(int which, int *matrix, MPI_Datatype vec, int ints, char *packed, int bytes, long n) {
    double start = now_s();
    for (long i = 0; i < n; i++) {
        int pos = 0;
        if (which == 0) {
            MPI_Pack(matrix, 1, vec, packed, bytes, &pos, MPI_COMM_WORLD);
        } else if (which == 1) {
            MPI_Unpack(packed, bytes, &pos, matrix, 1, vec, MPI_COMM_WORLD);
        } else {
            MPI_Pack(matrix, ints, MPI_INT, packed, bytes, &pos, MPI_COMM_WORLD);
        }
    }
    return now_s() - start;
}

static MPI_Datatype growing_struct(int last, int *blocks, long *extent_ints) {
    int n = 0;
    for (int b = 1; b <= last; b *= 2) n++;
    int *lengths = malloc(n * sizeof(int));
    MPI_Aint *displs = malloc(n * sizeof(MPI_Aint));
    MPI_Datatype *types = malloc(n * sizeof(MPI_Datatype));
    long at = 0;
    int i = 0;
    for (int b = 1; b <= last; b *= 2, i++) {
        lengths[i] = b;
        displs[i] = at * (MPI_Aint) sizeof(int);
        types[i] = MPI_INT;
        at += b + (b < last ? b : 0); /* the block, then a gap as long as it */
    }
    MPI_Datatype t;
    MPI_Type_create_struct(n, lengths, displs, types, &t);
    MPI_Type_commit(&t);
    *blocks = n;
    *extent_ints = at;
    free(lengths);
    free(displs);
    free(types);
    return t;
}

static double alltoall(void *send, void *recv, int count, MPI_Datatype type, int iterations) {
    int warmup = iterations / 10 > 2 ? iterations / 10 : 2;
    double start = 0;
    for (int i = 0; i < warmup + iterations; i++) {
        if (i == warmup) {
            MPI_Barrier(MPI_COMM_WORLD);
            start = now_s();
        }
        MPI_Alltoall(send, count, type, recv, count, type, MPI_COMM_WORLD);
    }
    double local = (now_s() - start) * 1e6 / iterations, worst;
    MPI_Allreduce(&local, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "latency";
    int xs[64];
    int nx;
    if (strcmp(mode, "alltoall") == 0) {
        nx = parse_list(argc > 2 ? argv[2] : "2048,8192,32768,131072", xs, 64);
        int iterations = argc > 3 ? atoi(argv[3]) : 50;
        if (rank == 0)
            printf("# alltoall on %d ranks: last block (ints), bytes per peer, struct us, contiguous us, ratio\n", size);
        for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < nx; k++) {
            int blocks;
            long extent;
            MPI_Datatype t = growing_struct(xs[k], &blocks, &extent);
            int ints = 2 * xs[k] - 1;
            int *send = calloc((size_t) extent * size, sizeof(int));
            int *recv = calloc((size_t) extent * size, sizeof(int));
            double s = alltoall(send, recv, 1, t, iterations);
            double c = alltoall(send, recv, ints, MPI_INT, iterations);
            if (rank == 0 && pass == 1) printf("alltoall %d %ld %.2f %.2f %.3f\n", xs[k], (long) ints * 4, s, c, s / c);
            free(send);
            free(recv);
            MPI_Type_free(&t);
        }
        MPI_Finalize();
        return 0;
    }
    nx = parse_list(argc > 2 ? argv[2] : "1,4,16,64,256,1024,4096", xs, 64);
    int *matrix = calloc((size_t) ROWS * COLS, sizeof(int));
    for (int i = 0; i < ROWS * COLS; i++) matrix[i] = i;
    if (rank == 0) {
        if (strcmp(mode, "pack") == 0)
            printf("# pack: columns, bytes, pack GB/s, unpack GB/s, contiguous pack GB/s, pack/contiguous\n");
        else if (strcmp(mode, "latency") == 0)
            printf("# latency: columns, bytes, vector us, contiguous us, vector/contiguous\n");
        else
            printf("# bandwidth (window %d): columns, bytes, vector MB/s, contiguous MB/s, contiguous/vector\n", WINDOW);
    }
    for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < nx; k++) {
        int x = xs[k];
        int print = pass == 1;
        MPI_Datatype vec;
        MPI_Type_vector(ROWS, x, COLS, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        int ints = ROWS * x;
        long bytes = (long) ints * 4;
        if (strcmp(mode, "pack") == 0) {
            double megabytes = (argc > 3 ? atof(argv[3]) : 4096) / (print ? 1 : 4);
            long n = (long) (megabytes * 1e6 / bytes);
            if (n < 10) n = 10;
            if (rank == 0) {
                char *packed = malloc(bytes);
                double t[3];
                for (int which = 0; which < 3; which++) {
                    pack_loop(which, matrix, vec, ints, packed, (int) bytes, n / 4 + 1); /* warm-up */
                    t[which] = pack_loop(which, matrix, vec, ints, packed, (int) bytes, n);
                }
                double gb = (double) bytes * n / 1e9;
                if (print) printf("pack %d %ld %.2f %.2f %.2f %.3f\n", x, bytes, gb / t[0], gb / t[1], gb / t[2],
                       t[0] / t[2]);
                free(packed);
            }
        } else if (strcmp(mode, "latency") == 0) {
            int iterations = argc > 3 ? atoi(argv[3]) : 1000;
            double v = ping_pong(rank, matrix, 1, vec, iterations);
            double c = ping_pong(rank, matrix, ints, MPI_INT, iterations);
            if (rank == 0 && print) printf("latency %d %ld %.2f %.2f %.3f\n", x, bytes, v, c, v / c);
        } else if (strcmp(mode, "bandwidth") == 0) {
            int windows = argc > 3 ? atoi(argv[3]) : 20;
            double v = window_bw(rank, matrix, 1, vec, bytes, windows);
            double c = window_bw(rank, matrix, ints, MPI_INT, bytes, windows);
            if (rank == 0 && print) printf("bandwidth %d %ld %.1f %.1f %.3f\n", x, bytes, v, c, c / v);
        } else {
            if (rank == 0) fprintf(stderr, "datatype_vector: unknown mode %s\n", mode);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Type_free(&vec);
    }
    free(matrix);
    MPI_Finalize();
    return 0;
}
