/*
 * Shared by the C twins of the Java OSU-style programs (OsuLatency, OsuBandwidth, OsuBiBandwidth):
 * the same options, defaults, size sequence and table format, so that benchmarks/compare-openmpi
 * can put Open MPI's C figures beside Verbatim's. Built with Open MPI's mpicc.
 */
#ifndef OSU_COMMON_H
#define OSU_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LARGE_MESSAGE 8192

typedef struct {
    long min_size, max_size;
    int iterations, warmup, iterations_large, warmup_large, window, batches;
} osu_options;

static long osu_size(const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'K' || *end == 'k') v <<= 10;
    else if (*end == 'M' || *end == 'm') v <<= 20;
    return v;
}

/* Parses argv; returns 0 on success, prints usage (rank 0) and returns 1 otherwise. */
static int osu_parse(int argc, char **argv, int bandwidth, osu_options *o) {
    o->min_size = 0;
    o->max_size = 4L << 20;
    o->iterations = bandwidth ? 100 : 10000;
    o->warmup = bandwidth ? 10 : 1000;
    o->iterations_large = bandwidth ? 20 : 1000;
    o->warmup_large = bandwidth ? 2 : 100;
    o->window = 64;
    o->batches = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) {
            o->iterations = o->iterations_large = 5;
            o->warmup = o->warmup_large = 1;
            continue;
        }
        if (!strcmp(a, "--buffer") || !strcmp(a, "-b")) { i++; continue; } /* C: one kind */
        if (v == NULL) goto usage;
        i++;
        if (!strcmp(a, "--min-size")) o->min_size = osu_size(v);
        else if (!strcmp(a, "--max-size")) o->max_size = osu_size(v);
        else if (!strcmp(a, "--size") || !strcmp(a, "-m")) {
            const char *colon = strchr(v, ':');
            o->min_size = osu_size(v);
            o->max_size = colon ? osu_size(colon + 1) : o->min_size;
        } else if (!strcmp(a, "--iterations") || !strcmp(a, "-i")) o->iterations = atoi(v);
        else if (!strcmp(a, "--warmup") || !strcmp(a, "-x")) o->warmup = atoi(v);
        else if (!strcmp(a, "--iterations-large")) o->iterations_large = atoi(v);
        else if (!strcmp(a, "--warmup-large")) o->warmup_large = atoi(v);
        else if (!strcmp(a, "--window") || !strcmp(a, "-W")) o->window = atoi(v);
        else if (!strcmp(a, "--batches")) o->batches = atoi(v);
        else goto usage;
    }
    if (o->min_size < 0 || o->max_size < o->min_size || o->iterations < 1 || o->window < 1 || o->batches < 1)
        goto usage;
    return 0;
usage:
    fprintf(stderr, "usage: %s [--size MIN:MAX] [--min-size N] [--max-size N] [--iterations N]"
            " [--warmup N] [--iterations-large N] [--warmup-large N] [--window N] [--batches N]"
            " [--quick]\n",
            argv[0]);
    return 1;
}

static int osu_iterations(const osu_options *o, long size) {
    return size > LARGE_MESSAGE ? o->iterations_large : o->iterations;
}

static int osu_warmup(const osu_options *o, long size) {
    return size > LARGE_MESSAGE ? o->warmup_large : o->warmup;
}

/* Timed iterations per batch: the timed iterations split into o->batches parts. */
static int osu_per_batch(const osu_options *o, long size) {
    int n = osu_iterations(o, size) / o->batches;
    return n < 1 ? 1 : n;
}

static long osu_next(long size) {
    return size == 0 ? 1 : size * 2;
}

static void osu_header(const char *title, const char *column, int batches) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(version, &len);
    char *nl = strchr(version, '\n');
    if (nl) *nl = 0;
    nl = strchr(version, ',');
    if (nl) *nl = 0;
    printf("# %s\n# bindings: %s (C), buffers: malloc", title, version);
    if (batches > 1) printf(", best of %d batches", batches);
    printf("\n%-10s%20s\n", "# Size", column);
    fflush(stdout);
}

static void osu_row(long size, double value) {
    printf("%-10ld%20.2f\n", size, value);
    fflush(stdout);
}

static char *osu_buffer(long size, char fill) {
    long n = size < 4 ? 4 : size;
    char *b = malloc(n);
    if (b == NULL) {
        fprintf(stderr, "out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    memset(b, fill, n);
    return b;
}

static int osu_two_ranks(const char *program) {
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (size != 2 && rank == 0) fprintf(stderr, "%s: needs exactly 2 ranks, got %d\n", program, size);
    return size == 2;
}

#endif
