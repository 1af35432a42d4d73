/* The C twin of org.verbatim.benchmarks.OsuOneSided, for benchmarks/compare-onesided: the same
 * tests, options, epochs and table, built once with Open MPI's mpicc and once with MPICH's, so
 * that one run puts both C libraries beside Verbatim and Open MPI's Java bindings.
 *
 *   osu_onesided [put-latency|get-latency|put-bw|get-bw|acc-latency|fop-latency|cas-latency]
 *                [--sync lock|flush|fence|pscw] [--win create|allocate]
 *                [--min B] [--max B] [--step F] [--iterations N] [--warmup N] [--window N]
 *
 * Rank 0 is the origin, rank 1 the target. Epochs: lock locks (shared) and unlocks around every
 * operation, flush locks once and flushes after every operation, fence and pscw open and close an
 * active epoch per operation (per --window operations, default 64, for the bandwidth tests).
 * Latency per operation with its synchronisation, in us; bandwidth in MB/s (10^6 B). --warmup N:
 * N epochs at the first size before anything is timed (the Java twin needs them for its JIT;
 * here they change nothing), then a tenth of the timed epochs at every size, as the Java twin.
 * Sizes go from --min to --max, each --step times the last (2), the last one --max. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long parse_size(const char *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == 'K' || *end == 'k') v <<= 10;
    else if (*end == 'M' || *end == 'm') v <<= 20;
    return v;
}

static const char *test = "put-latency";
static const char *sync_mode = "flush";
static int rank;
static MPI_Win win;
static MPI_Group target_group;
static char *origin, *result;
static long long compare_word;
static long max_size;
static long per_epoch = 1;

static void one_op(long size) {
    if (!strcmp(test, "get-latency") || !strcmp(test, "get-bw")) {
        MPI_Get(result, (int) size, MPI_BYTE, 1, 0, (int) size, MPI_BYTE, win);
    } else if (!strcmp(test, "acc-latency")) {
        MPI_Accumulate(origin, (int) (size / 4), MPI_INT, 1, 0, (int) (size / 4), MPI_INT,
                       MPI_SUM, win);
    } else if (!strcmp(test, "fop-latency")) {
        MPI_Fetch_and_op(origin, result, MPI_LONG_LONG, 1, 0, MPI_SUM, win);
    } else if (!strcmp(test, "cas-latency")) {
        MPI_Compare_and_swap(origin, &compare_word, result, MPI_LONG_LONG, 1, 0, win);
    } else {
        MPI_Put(origin, (int) size, MPI_BYTE, 1, 0, (int) size, MPI_BYTE, win);
    }
}

static void op(long size) {
    for (long i = 0; i < per_epoch; i++) one_op(size);
}

static void epochs(long size, long n) {
    if (!strcmp(sync_mode, "fence")) {
        MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
        for (long e = 0; e < n; e++) {
            if (rank == 0) op(size);
            MPI_Win_fence(0, win);
        }
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    } else if (!strcmp(sync_mode, "pscw")) {
        for (long e = 0; e < n; e++) {
            if (rank == 0) {
                MPI_Win_start(target_group, 0, win);
                op(size);
                MPI_Win_complete(win);
            } else {
                MPI_Win_post(target_group, 0, win);
                MPI_Win_wait(win);
            }
        }
    } else if (!strcmp(sync_mode, "lock")) {
        if (rank == 0) {
            for (long e = 0; e < n; e++) {
                MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
                op(size);
                MPI_Win_unlock(1, win);
            }
        }
    } else {
        if (rank == 0) {
            MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
            for (long e = 0; e < n; e++) {
                op(size);
                MPI_Win_flush(1, win);
            }
            MPI_Win_unlock(1, win);
        }
    }
    if (strcmp(sync_mode, "fence") && strcmp(sync_mode, "pscw")) MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *win_kind = "allocate";
    long min_size = 8;
    max_size = 4L << 20;
    long iterations = 2000, warmup = 0, step = 2, window = 64;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--sync")) { sync_mode = v; i++; }
        else if (!strcmp(a, "--win")) { win_kind = v; i++; }
        else if (!strcmp(a, "--min")) { min_size = parse_size(v); i++; }
        else if (!strcmp(a, "--max")) { max_size = parse_size(v); i++; }
        else if (!strcmp(a, "--iterations")) { iterations = atol(v); i++; }
        else if (!strcmp(a, "--warmup")) { warmup = atol(v); i++; }
        else if (!strcmp(a, "--step")) { step = atol(v) < 2 ? 2 : atol(v); i++; }
        else if (!strcmp(a, "--window")) { window = atol(v) < 1 ? 1 : atol(v); i++; }
        else if (a[0] == '-') {
            if (rank == 0) fprintf(stderr, "osu_onesided: unknown option %s\n", a);
            MPI_Abort(MPI_COMM_WORLD, 2);
        } else test = a;
    }
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "osu_onesided: needs exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (!strncmp(test, "fop", 3) || !strncmp(test, "cas", 3)) min_size = max_size = 8;
    int bw = strlen(test) > 3 && !strcmp(test + strlen(test) - 3, "-bw");
    origin = calloc(max_size, 1);
    result = calloc(max_size, 1);
    void *base;
    if (!strcmp(win_kind, "allocate")) {
        MPI_Win_allocate(2 * max_size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    } else {
        base = calloc(2 * max_size, 1);
        MPI_Win_create(base, 2 * max_size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }
    MPI_Group world_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    int peer = 1 - rank;
    MPI_Group_incl(world_group, 1, &peer, &target_group);
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(version, &len);
    char *nl = strchr(version, '\n');
    if (nl) *nl = 0;
    if (rank == 0) {
        printf("# OSU-style one-sided %s (C twin), sync %s, window %s (%s)\n", test, sync_mode,
               !strcmp(win_kind, "allocate") ? "allocated" : "created", version);
        printf("%-10s%20s\n", "# Size", bw ? "Bandwidth (MB/s)" : "Latency (us)");
    }
    per_epoch = bw ? window : 1;
    if (warmup > 0) epochs(min_size, warmup);
    for (long s = min_size; s <= max_size;
         s = s == max_size ? max_size + 1 : (s * step < max_size ? s * step : max_size)) {
        long iters = s > 65536 ? (iterations / 20 > 10 ? iterations / 20 : 10) : iterations;
        long n = bw ? (iters / window > 2 ? iters / window : 2) : iters;
        long untimed = n / 10 > 2 ? n / 10 : 2;
        long floor = s <= 65536 ? (30000 + per_epoch - 1) / per_epoch : 0; /* as OsuOneSided.untimed */
        if (floor > untimed) untimed = floor;
        for (long done = 0; done < untimed; done += 10) /* as OsuOneSided: calls of 10 */
            epochs(s, untimed - done < 10 ? untimed - done : 10);
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        epochs(s, n);
        double seconds = MPI_Wtime() - start;
        if (rank == 0) {
            double ops = (double) n * per_epoch;
            printf("%-10ld%20.2f\n", s, bw ? s * ops / seconds / 1e6 : seconds * 1e6 / ops);
            fflush(stdout);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
