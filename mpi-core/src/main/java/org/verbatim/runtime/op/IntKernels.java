package org.verbatim.runtime.op;

/**
 * Integer kernels over Java arrays: {@code xs} (inout) and {@code ys} (in) from their offsets,
 * {@code n} values. One loop per operation, each a single expression over two arrays, so the JIT
 * unrolls and vectorizes them. The 8- and 16-bit kinds use byte[] (uint8: compared unsigned),
 * char[] (uint16) and short[] (int16), with C's wrap-around on narrowing.
 */
final class IntKernels {
    private IntKernels() {
    }

    static void int32(OpCode op, int[] xs, int xo, int[] ys, int yo, int n) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x > y ? x : y;
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x < y ? x : y;
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x + y;
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x * y;
                }
            }
            case LAND -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = (x != 0 && y != 0) ? 1 : 0;
                }
            }
            case LOR -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = (x != 0 || y != 0) ? 1 : 0;
                }
            }
            case LXOR -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = ((x != 0) != (y != 0)) ? 1 : 0;
                }
            }
            case BAND -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x & y;
                }
            }
            case BOR -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x | y;
                }
            }
            case BXOR -> {
                for (int i = 0; i < n; i++) {
                    int x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x ^ y;
                }
            }
            default -> throw new AssertionError(op);
        }
    }

    static void int64(OpCode op, long[] xs, int xo, long[] ys, int yo, int n) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x > y ? x : y;
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x < y ? x : y;
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x + y;
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x * y;
                }
            }
            case LAND -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = (x != 0 && y != 0) ? 1 : 0;
                }
            }
            case LOR -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = (x != 0 || y != 0) ? 1 : 0;
                }
            }
            case LXOR -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = ((x != 0) != (y != 0)) ? 1 : 0;
                }
            }
            case BAND -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x & y;
                }
            }
            case BOR -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x | y;
                }
            }
            case BXOR -> {
                for (int i = 0; i < n; i++) {
                    long x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x ^ y;
                }
            }
            default -> throw new AssertionError(op);
        }
    }

    static void uint8(OpCode op, byte[] xs, int xo, byte[] ys, int yo, int n) {
        for (int i = 0; i < n; i++) {
            xs[xo + i] = (byte) combine(op, xs[xo + i] & 0xff, ys[yo + i] & 0xff);
        }
    }

    static void uint16(OpCode op, char[] xs, int xo, char[] ys, int yo, int n) {
        for (int i = 0; i < n; i++) {
            xs[xo + i] = (char) combine(op, xs[xo + i], ys[yo + i]);
        }
    }

    static void int16(OpCode op, short[] xs, int xo, short[] ys, int yo, int n) {
        for (int i = 0; i < n; i++) {
            xs[xo + i] = (short) combine(op, xs[xo + i], ys[yo + i]);
        }
    }

    /** {@code x op y} for widened 8/16-bit values; x is the inout element. */
    static int combine(OpCode op, int x, int y) {
        return switch (op) {
            case MAX -> x > y ? x : y;
            case MIN -> x < y ? x : y;
            case SUM -> x + y;
            case PROD -> x * y;
            case LAND -> (x != 0 && y != 0) ? 1 : 0;
            case LOR -> (x != 0 || y != 0) ? 1 : 0;
            case LXOR -> ((x != 0) != (y != 0)) ? 1 : 0;
            case BAND -> x & y;
            case BOR -> x | y;
            case BXOR -> x ^ y;
            default -> throw new AssertionError(op);
        };
    }
}
