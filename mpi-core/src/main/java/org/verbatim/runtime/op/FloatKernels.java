package org.verbatim.runtime.op;

/**
 * Floating-point kernels over Java arrays ({@code xs} inout, {@code ys} in). MAX and MIN are
 * C's {@code x > y ? x : y} and {@code x < y ? x : y} with {@code x} the inout element (see
 * {@link Reduction} for NaN and signed zeros); SUM and PROD are single IEEE operations, so every
 * result is exactly reproducible.
 */
final class FloatKernels {
    private FloatKernels() {
    }

    static void float32(OpCode op, float[] xs, int xo, float[] ys, int yo, int n) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    float x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x > y ? x : y;
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    float x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x < y ? x : y;
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    float x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x + y;
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    float x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x * y;
                }
            }
            default -> throw new AssertionError(op);
        }
    }

    static void float64(OpCode op, double[] xs, int xo, double[] ys, int yo, int n) {
        switch (op) {
            case MAX -> {
                for (int i = 0; i < n; i++) {
                    double x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x > y ? x : y;
                }
            }
            case MIN -> {
                for (int i = 0; i < n; i++) {
                    double x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x < y ? x : y;
                }
            }
            case SUM -> {
                for (int i = 0; i < n; i++) {
                    double x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x + y;
                }
            }
            case PROD -> {
                for (int i = 0; i < n; i++) {
                    double x = xs[xo + i], y = ys[yo + i];
                    xs[xo + i] = x * y;
                }
            }
            default -> throw new AssertionError(op);
        }
    }
}
