/*
 * Collective latency: the C twin of OsuCollective (org.verbatim.benchmarks), after OSU's
 * osu_barrier, osu_bcast, osu_reduce, osu_allreduce, osu_gather, osu_scatter, osu_allgather,
 * osu_alltoall and osu_reduce_scatter. Same options (--op NAME[,NAME...]|all, --full, and those
 * of osu_common.h with the OSU collective defaults; --jit-warmup N is accepted and ignored), same
 * calls (floats with MPI_SUM for the reductions, bytes otherwise, root 0) and the same table
 * format. Built with Open MPI's mpicc.
 */
/* osu_common.h holds helpers for the point-to-point programs that this one does not call. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "osu_common.h"

enum op { BARRIER, BCAST, REDUCE, ALLREDUCE, GATHER, SCATTER, ALLGATHER, ALLTOALL, REDUCE_SCATTER, NOPS };

static const char *const option_of[NOPS] = {"barrier", "bcast", "reduce", "allreduce", "gather",
    "scatter", "allgather", "alltoall", "reduce_scatter"};
static const char *const title_of[NOPS] = {"Barrier", "Broadcast", "Reduce", "Allreduce", "Gather",
    "Scatter", "Allgather", "All-to-All Personalized Exchange", "Reduce_scatter"};

/* The OSU collective defaults, ahead of the user's options so that those override them. */
static const char *const defaults[] = {"--size", "4:1M", "--iterations", "1000", "--warmup", "200",
    "--iterations-large", "100", "--warmup-large", "10"};
#define NDEFAULTS ((int) (sizeof defaults / sizeof defaults[0]))

static long send_bytes(int op, long size, int ranks) {
    return op == SCATTER || op == ALLTOALL ? size * ranks : size;
}

static long recv_bytes(int op, long size, int ranks) {
    return op == GATHER || op == ALLGATHER || op == ALLTOALL ? size * ranks : size;
}

/* osu_reduce_scatter's receive counts: the floats divided as evenly as possible. */
static void recv_counts(long size, int ranks, int *counts) {
    int elements = (int) (size / 4);
    for (int i = 0; i < ranks; i++)
        counts[i] = elements < ranks ? (i < elements ? 1 : 0)
                                     : elements / ranks + (i < elements % ranks ? 1 : 0);
}

static void run(int op, char *s, char *r, long size, int *counts) {
    int n = (int) size;
    switch (op) {
    case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
    case BCAST: MPI_Bcast(s, n, MPI_CHAR, 0, MPI_COMM_WORLD); break;
    case REDUCE: MPI_Reduce(s, r, n / 4, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD); break;
    case ALLREDUCE: MPI_Allreduce(s, r, n / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); break;
    case GATHER: MPI_Gather(s, n, MPI_CHAR, r, n, MPI_CHAR, 0, MPI_COMM_WORLD); break;
    case SCATTER: MPI_Scatter(s, n, MPI_CHAR, r, n, MPI_CHAR, 0, MPI_COMM_WORLD); break;
    case ALLGATHER: MPI_Allgather(s, n, MPI_CHAR, r, n, MPI_CHAR, MPI_COMM_WORLD); break;
    case ALLTOALL: MPI_Alltoall(s, n, MPI_CHAR, r, n, MPI_CHAR, MPI_COMM_WORLD); break;
    case REDUCE_SCATTER: MPI_Reduce_scatter(s, r, counts, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); break;
    }
}

static char *buffer(int op, long bytes, float fill) {
    char *b = osu_buffer(bytes, fill == 0 ? 'b' : 'a');
    if (op == REDUCE || op == ALLREDUCE || op == REDUCE_SCATTER)
        for (long i = 0; i + 4 <= (bytes < 4 ? 4 : bytes); i += 4) memcpy(b + i, &fill, 4);
    return b;
}

static void measure(int op, const osu_options *o, int full) {
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    long max = op == BARRIER ? 4 : o->max_size;
    char *s = buffer(op, send_bytes(op, max, ranks), 1), *r = buffer(op, recv_bytes(op, max, ranks), 0);
    int *counts = malloc(sizeof(int) * ranks);
    if (rank == 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(version, &len);
        version[strcspn(version, ",\n")] = 0;
        printf("# OSU-style MPI %s Latency Test (Verbatim benchmarks)\n", title_of[op]);
        printf("# op %s, %d ranks, bindings: %s (C), buffers: malloc", option_of[op], ranks, version);
        if (o->batches > 1) printf(", best of %d batches per rank", o->batches);
        if (full) printf("\n%-10s%20s%20s%20s%12s\n", "# Size", "Avg Latency(us)", "Min Latency(us)",
                         "Max Latency(us)", "Iterations");
        else printf("\n%-10s%20s\n", "# Size", "Avg Latency(us)");
        fflush(stdout);
    }
    for (long size = op == BARRIER ? 0 : o->min_size; size <= (op == BARRIER ? 0 : o->max_size);
         size = osu_next(size)) {
        int warmup = osu_warmup(o, size), per_batch = osu_per_batch(o, size);
        double best = 1e300, batch = 0, mine, lo, hi, sum;
        recv_counts(size, ranks, counts);
        MPI_Barrier(MPI_COMM_WORLD);
        for (int i = 0; i < warmup + o->batches * per_batch; i++) {
            double start = MPI_Wtime();
            run(op, s, r, size, counts);
            double took = MPI_Wtime() - start;
            if (i >= warmup) {
                batch += took;
                if ((i - warmup + 1) % per_batch == 0) {
                    if (batch < best) best = batch;
                    batch = 0;
                }
            }
            if (op != BARRIER) MPI_Barrier(MPI_COMM_WORLD);
        }
        mine = best * 1e6 / per_batch;
        MPI_Reduce(&mine, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mine, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            if (full) printf("%-10ld%20.2f%20.2f%20.2f%12d\n", size, sum / ranks, lo, hi, o->batches * per_batch);
            else osu_row(size, sum / ranks);
            fflush(stdout);
        }
    }
    free(counts);
    free(s);
    free(r);
}

static int op_of(const char *name) {
    for (int k = 0; k < NOPS; k++)
        if (!strcmp(name, option_of[k])) return k;
    return -1;
}

int main(int argc, char **argv) {
    osu_options o;
    int ops[64], nops = 0, full = 0, bad = 0, rank;
    char **rest = malloc(sizeof(char *) * (argc + NDEFAULTS + 1));
    int nrest = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    rest[nrest++] = argv[0];
    for (int i = 0; i < NDEFAULTS; i++) rest[nrest++] = (char *) defaults[i];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--full") || !strcmp(argv[i], "-f")) {
            full = 1;
        } else if (!strcmp(argv[i], "--jit-warmup")) {
            i++; /* the Java programs' JIT warm-up: nothing to compile here */
        } else if (!strcmp(argv[i], "--op") || !strcmp(argv[i], "-o")) {
            if (++i >= argc) { bad = 1; break; }
            char *list = strdup(argv[i]);
            for (char *name = strtok(list, ","); name != NULL; name = strtok(NULL, ",")) {
                if (!strcmp(name, "all")) {
                    for (int k = 0; k < NOPS && nops < 64; k++) ops[nops++] = k;
                } else if (op_of(name) >= 0 && nops < 64) {
                    ops[nops++] = op_of(name);
                } else {
                    bad = 1;
                }
            }
            free(list);
        } else {
            rest[nrest++] = argv[i];
        }
    }
    rest[nrest] = NULL;
    if (bad || nops == 0 || osu_parse(nrest, rest, 0, &o)) {
        if (rank == 0)
            fprintf(stderr, "usage: %s --op OP[,OP...]|all [--full] [options of osu_latency]\n"
                    "  OP: barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall,"
                    " reduce_scatter\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    for (int k = 0; k < nops; k++) measure(ops[k], &o, full);
    free(rest);
    MPI_Finalize();
    return 0;
}
