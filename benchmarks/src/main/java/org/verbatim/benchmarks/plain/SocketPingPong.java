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
 * path), optionally bound to other cores with taskset, and prints the average half round trip
 * and the bandwidth, in PlainPingPong's format.
 *
 * <p>Usage: {@code SocketPingPong [size=8] [warmup=10000] [timed=100000] [address=127.0.0.1]
 * [parentCpu childCpu]}; internal: {@code SocketPingPong echo address port size iterations}.
 */
public final class SocketPingPong {
    private SocketPingPong() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("echo")) {
            echo(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Long.parseLong(args[4]));
            return;
        }
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int timed = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
        String address = args.length > 3 ? args[3] : "127.0.0.1";
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            List<String> cmd = new ArrayList<>();
            if (args.length > 5) {
                cmd.addAll(List.of("taskset", "-c", args[5]));
                new ProcessBuilder("taskset", "-cp", args[4],
                        Long.toString(ProcessHandle.current().pid())).start().waitFor();
            }
            cmd.addAll(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                    System.getProperty("java.class.path"), SocketPingPong.class.getName(), "echo",
                    address, Integer.toString(port), Integer.toString(size),
                    Long.toString((long) warmup + timed)));
            Process child = new ProcessBuilder(cmd).inheritIO().start();
            try (SocketChannel ch = server.accept()) {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ByteBuffer buf = ByteBuffer.allocateDirect(size);
                long start = 0;
                for (int i = 0; i < warmup + timed; i++) {
                    if (i == warmup) {
                        start = System.nanoTime();
                    }
                    buf.clear();
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                    buf.clear();
                    while (buf.hasRemaining()) {
                        if (ch.read(buf) < 0) {
                            throw new IOException("echo ended early");
                        }
                    }
                }
                double us = (System.nanoTime() - start) / 1e3 / timed / 2;
                System.out.printf("size %d B: %.3f us half round trip, %.1f MB/s (plain Java socket)%n",
                        size, us, size / us);
            }
            child.waitFor();
        }
    }

    private static void echo(String address, int port, int size, long iterations)
            throws IOException {
        try (SocketChannel ch = SocketChannel.open(
                new InetSocketAddress(InetAddress.getByName(address), port))) {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ByteBuffer buf = ByteBuffer.allocateDirect(size);
            for (long i = 0; i < iterations; i++) {
                buf.clear();
                while (buf.hasRemaining()) {
                    if (ch.read(buf) < 0) {
                        return;
                    }
                }
                buf.flip();
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }
        }
    }
}
