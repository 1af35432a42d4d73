package org.verbatim.benchmarks;

/**
 * Command-line options shared by the OSU-style programs, with the OSU micro-benchmark defaults:
 * messages above {@value #LARGE_MESSAGE} bytes run the "large" iteration counts.
 *
 * <p>This file and the programs compile against any implementation of the Open MPI Java API
 * (Verbatim, or Open MPI's own mpi.jar), so they use only that API and Java 17.
 */
final class OsuOptions {
    static final int LARGE_MESSAGE = 8192;

    enum Kind { LATENCY, BANDWIDTH }

    boolean direct;
    /** Latency: also time every iteration and report the median (perftest's "typical"). */
    boolean typical;
    int minSize;
    int maxSize = 4 << 20;
    int iterations;
    int warmup;
    int iterationsLarge;
    int warmupLarge;
    int window = 64;
    int batches = 1;

    private OsuOptions(Kind kind) {
        if (kind == Kind.LATENCY) {
            iterations = 10_000;
            warmup = 1_000;
            iterationsLarge = 1_000;
            warmupLarge = 100;
        } else {
            iterations = 100;
            warmup = 10;
            iterationsLarge = 20;
            warmupLarge = 2;
        }
    }

    int iterations(int size) {
        return size > LARGE_MESSAGE ? iterationsLarge : iterations;
    }

    int warmup(int size) {
        return size > LARGE_MESSAGE ? warmupLarge : warmup;
    }

    /** Timed iterations per batch: the timed iterations split into {@link #batches} parts. */
    int perBatch(int size) {
        return Math.max(1, iterations(size) / batches);
    }

    /** Parses {@code args}; prints usage and returns null on -h or a bad option. */
    static OsuOptions parse(String program, Kind kind, String[] args) {
        OsuOptions o = new OsuOptions(kind);
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--buffer", "-b" -> {
                        String v = args[++i];
                        if (!v.equals("array") && !v.equals("direct")) {
                            throw new IllegalArgumentException("--buffer must be array or direct");
                        }
                        o.direct = v.equals("direct");
                    }
                    case "--min-size" -> o.minSize = size(args[++i]);
                    case "--max-size" -> o.maxSize = size(args[++i]);
                    case "--size", "-m" -> {
                        String v = args[++i];
                        int colon = v.indexOf(':');
                        if (colon < 0) {
                            o.minSize = o.maxSize = size(v);
                        } else {
                            o.minSize = size(v.substring(0, colon));
                            o.maxSize = size(v.substring(colon + 1));
                        }
                    }
                    case "--iterations", "-i" -> o.iterations = Integer.parseInt(args[++i]);
                    case "--warmup", "-x" -> o.warmup = Integer.parseInt(args[++i]);
                    case "--iterations-large" -> o.iterationsLarge = Integer.parseInt(args[++i]);
                    case "--warmup-large" -> o.warmupLarge = Integer.parseInt(args[++i]);
                    case "--window", "-W" -> o.window = Integer.parseInt(args[++i]);
                    case "--batches" -> o.batches = Integer.parseInt(args[++i]);
                    case "--typical" -> o.typical = kind == Kind.LATENCY;
                    case "--quick" -> {
                        o.iterations = o.iterationsLarge = 5;
                        o.warmup = o.warmupLarge = 1;
                    }
                    case "-h", "--help" -> {
                        usage(program, kind);
                        return null;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (o.minSize < 0 || o.maxSize < o.minSize || o.iterations < 1 || o.iterationsLarge < 1
                    || o.warmup < 0 || o.warmupLarge < 0 || o.window < 1 || o.batches < 1) {
                throw new IllegalArgumentException("sizes, iterations or window out of range");
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            System.err.println(program + ": option needs a value");
            usage(program, kind);
            return null;
        } catch (IllegalArgumentException e) {
            System.err.println(program + ": " + e.getMessage());
            usage(program, kind);
            return null;
        }
        return o;
    }

    /** A size in bytes, with an optional K or M suffix (powers of 1024). */
    static int size(String s) {
        s = s.trim().toUpperCase();
        int mult = 1;
        if (s.endsWith("K")) {
            mult = 1 << 10;
            s = s.substring(0, s.length() - 1);
        } else if (s.endsWith("M")) {
            mult = 1 << 20;
            s = s.substring(0, s.length() - 1);
        }
        return Math.multiplyExact(Integer.parseInt(s), mult);
    }

    private static void usage(String program, Kind kind) {
        OsuOptions d = new OsuOptions(kind);
        System.err.println("Usage: mpirun -np 2 ... " + program + " [options]\n"
                + "  --buffer array|direct   message buffers: byte[] (default) or direct ByteBuffer\n"
                + "  --min-size N, --max-size N, --size MIN:MAX\n"
                + "                          sizes in bytes (K, M suffixes), powers of two from MIN\n"
                + "                          (0 means 0 then 1); default 0:4M\n"
                + "  --iterations N, --warmup N   timed and untimed iterations up to "
                + LARGE_MESSAGE + " B (default " + d.iterations + ", " + d.warmup + ")\n"
                + "  --iterations-large N, --warmup-large N   above that (default "
                + d.iterationsLarge + ", " + d.warmupLarge + ")\n"
                + (kind == Kind.BANDWIDTH
                        ? "  --window N              nonblocking sends per iteration (default 64)\n" : "")
                + (kind == Kind.LATENCY
                        ? "  --typical               also time each iteration and print the median half\n"
                        + "                          round trip (perftest's t_typical), the average and\n"
                        + "                          the 99th percentile\n" : "")
                + "  --batches N             time the iterations in N batches and report the best\n"
                + "                          batch (robust on a busy machine); default 1 = the\n"
                + "                          OSU average over all timed iterations\n"
                + "  --quick                 5 timed, 1 warm-up iteration everywhere (CI)");
    }
}
