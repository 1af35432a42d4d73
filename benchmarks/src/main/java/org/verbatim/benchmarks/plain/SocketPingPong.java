package org.verbatim.benchmarks.plain;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor under transport-tcp: a plain Java socket ping-pong between two processes over
 * loopback (or any address), written as a user would (blocking {@code SocketChannel}s, direct
 * buffers, {@code TCP_NODELAY}). The parent starts the echoing child itself (same JDK and class
 * path), optionally bound to other cores with taskset.
 *
 * <p>Two forms. The first prints one size in PlainPingPong's format:
 * {@code SocketPingPong [size=8] [warmup=10000] [timed=100000] [address=127.0.0.1]
 * [parentCpu childCpu]}. The second prints an OSU table (the format of OsuLatency and
 * OsuBandwidth, so that benchmarks/compare-tcp reads it like theirs):
 * {@code SocketPingPong --osu lat|bw [--size MIN:MAX] [--iterations N] [--warmup N]
 * [--iterations-large N] [--warmup-large N] [--window N] [--batches N] [--wait block|spin]
 * [--address A] [--cpus parent,child] [--child-prefix "CMD ARGS"]}, with OSU's defaults
 * (latency 10000/1000 iterations up to 8 KiB and 1000/100 above; bandwidth 100/10 and 20/2,
 * windows of 64 one-way messages and a 4-byte answer). {@code --wait spin} makes both sockets non-blocking and spins on {@code read}, as a
 * polling MPI progress engine does; {@code block} (the default) sleeps in the kernel.
 * {@code --child-prefix} runs the child through a command (for example {@code ip netns exec B},
 * so that the two ends sit in different network namespaces).
 * Internal: {@code SocketPingPong echo address port OPTIONS...}.
 */
public final class SocketPingPong {
    private static final int LARGE = 8192;

    private final String mode;
    private long minSize = 1;
    private long maxSize = 4L << 20;
    private int iterations;
    private int warmup;
    private int iterationsLarge;
    private int warmupLarge;
    private int window = 64;
    private int batches = 1;
    private boolean spin;

    private SocketPingPong(String mode) {
        this.mode = mode;
        boolean lat = mode.equals("lat");
        iterations = lat ? 10_000 : 100;
        warmup = lat ? 1_000 : 10;
        iterationsLarge = lat ? 1_000 : 20;
        warmupLarge = lat ? 100 : 2;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("echo")) {
            List<String> rest = List.of(args).subList(3, args.length);
            SocketPingPong p = parse(rest);
            try (SocketChannel ch = SocketChannel.open(new InetSocketAddress(
                    InetAddress.getByName(args[1]), Integer.parseInt(args[2])))) {
                p.setUp(ch);
                p.run(ch, false);
            }
            return;
        }
        if (args.length > 0 && args[0].equals("--osu")) {
            osu(List.of(args));
            return;
        }
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        String warmup = args.length > 1 ? args[1] : "10000";
        String timed = args.length > 2 ? args[2] : "100000";
        String address = args.length > 3 ? args[3] : "127.0.0.1";
        List<String> osu = new ArrayList<>(List.of("--osu", "lat", "--size", size + ":" + size,
                "--warmup", warmup, "--iterations", timed, "--warmup-large", warmup,
                "--iterations-large", timed, "--address", address, "--single"));
        if (args.length > 5) {
            osu.addAll(List.of("--cpus", args[4] + "," + args[5]));
        }
        osu(osu);
    }

    private static SocketPingPong parse(List<String> args) {
        SocketPingPong p = new SocketPingPong(args.get(args.indexOf("--osu") + 1));
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--size" -> {
                    String[] mm = args.get(++i).split(":");
                    p.minSize = parseSize(mm[0]);
                    p.maxSize = parseSize(mm[1]);
                }
                case "--iterations" -> p.iterations = Integer.parseInt(args.get(++i));
                case "--warmup" -> p.warmup = Integer.parseInt(args.get(++i));
                case "--iterations-large" -> p.iterationsLarge = Integer.parseInt(args.get(++i));
                case "--warmup-large" -> p.warmupLarge = Integer.parseInt(args.get(++i));
                case "--window" -> p.window = Integer.parseInt(args.get(++i));
                case "--batches" -> p.batches = Integer.parseInt(args.get(++i));
                case "--wait" -> p.spin = args.get(++i).equals("spin");
                case "--address", "--cpus", "--child-prefix", "--osu" -> i++;
                case "--quick" -> {
                    p.iterations = p.iterationsLarge = 5;
                    p.warmup = p.warmupLarge = 1;
                }
                default -> {
                    // --single belongs to the parent
                }
            }
        }
        return p;
    }

    private static long parseSize(String s) {
        char last = Character.toUpperCase(s.charAt(s.length() - 1));
        long unit = last == 'K' ? 1024 : last == 'M' ? 1 << 20 : 1;
        return Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit;
    }

    private static void osu(List<String> args) throws Exception {
        SocketPingPong p = parse(args);
        int ai = args.indexOf("--address");
        String address = ai >= 0 ? args.get(ai + 1) : "127.0.0.1";
        int ci = args.indexOf("--cpus");
        boolean single = args.contains("--single");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            List<String> cmd = new ArrayList<>();
            int pi = args.indexOf("--child-prefix");
            if (pi >= 0) {
                cmd.addAll(List.of(args.get(pi + 1).trim().split("\\s+")));
            }
            if (ci >= 0) {
                String[] cpus = args.get(ci + 1).split(",");
                cmd.addAll(List.of("taskset", "-c", cpus[1]));
                new ProcessBuilder("taskset", "-acp", cpus[0],
                        Long.toString(ProcessHandle.current().pid())).start().waitFor();
            }
            cmd.addAll(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                    System.getProperty("java.class.path"), SocketPingPong.class.getName(), "echo",
                    address, Integer.toString(port)));
            cmd.addAll(args);
            Process child = new ProcessBuilder(cmd).inheritIO().start();
            try (SocketChannel ch = server.accept()) {
                p.setUp(ch);
                if (!single) {
                    System.out.printf("# plain Java socket %s (%s wait, %s, java %s)%n",
                            p.mode.equals("lat") ? "ping-pong" : "windows of " + p.window,
                            p.spin ? "spinning" : "blocking", address, Runtime.version());
                    System.out.println(p.mode.equals("lat") ? "# Size            Latency (us)"
                            : "# Size        Bandwidth (MB/s)");
                }
                List<double[]> rows = p.run(ch, true);
                for (double[] r : rows) {
                    if (single) {
                        System.out.printf("size %d B: %.3f us half round trip, %.1f MB/s (plain Java socket)%n",
                                (long) r[0], r[1], r[0] / r[1]);
                    } else {
                        System.out.printf("%-10d %17.2f%n", (long) r[0], r[1]);
                    }
                }
            }
            child.waitFor();
        }
    }

    private void setUp(SocketChannel ch) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.configureBlocking(!spin);
    }

    /** Runs every size; the parent ({@code timing}) returns {size, figure} rows. */
    private List<double[]> run(SocketChannel ch, boolean timing) throws IOException {
        List<double[]> rows = new ArrayList<>();
        ByteBuffer ack = ByteBuffer.allocateDirect(4);
        for (long s = minSize; s <= maxSize; s = s == 0 ? 1 : s * 2) {
            int size = (int) s;
            ByteBuffer buf = ByteBuffer.allocateDirect(Math.max(size, 1)).limit(size);
            boolean large = size > LARGE;
            int perBatch = Math.max(1, (large ? iterationsLarge : iterations) / batches);
            int warm = large ? warmupLarge : warmup;
            double best = Double.MAX_VALUE;
            long start = 0;
            for (int i = 0; i < warm + batches * perBatch; i++) {
                if (i >= warm && (i - warm) % perBatch == 0) {
                    if (i > warm) {
                        best = Math.min(best, System.nanoTime() - start);
                    }
                    start = System.nanoTime();
                }
                if (mode.equals("lat")) {
                    if (timing) {
                        write(ch, buf.clear().limit(size));
                        read(ch, buf.clear().limit(size));
                    } else {
                        read(ch, buf.clear().limit(size));
                        write(ch, buf.clear().limit(size));
                    }
                } else if (timing) {
                    for (int w = 0; w < window; w++) {
                        write(ch, buf.clear().limit(size));
                    }
                    read(ch, ack.clear());
                } else {
                    for (int w = 0; w < window; w++) {
                        read(ch, buf.clear().limit(size));
                    }
                    write(ch, ack.clear());
                }
            }
            best = Math.min(best, System.nanoTime() - start);
            double us = best / 1e3;
            rows.add(new double[] {size, mode.equals("lat") ? us / perBatch / 2
                    : (double) size * window * perBatch / us});
        }
        return rows;
    }

    private static void write(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static void read(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("the peer ended early");
            }
        }
    }
}
