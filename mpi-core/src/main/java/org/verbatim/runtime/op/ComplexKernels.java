package org.verbatim.runtime.op;

/**
 * Complex kernels for C {@code float _Complex} and {@code double _Complex} (real part first).
 * SUM adds the parts. PROD is the C99 Annex G product that C compilers emit for {@code *=}
 * (gcc's inline code plus {@code __mulsc3}/{@code __muldc3}): the textbook formula, and when both
 * parts come out NaN, infinities are recovered so that an infinite factor times a non-zero finite
 * one stays infinite.
 */
final class ComplexKernels {
    private ComplexKernels() {
    }

    /** {@code n} is the number of float values (2 per complex number, so even). */
    static void complex64(OpCode op, float[] xs, int xo, float[] ys, int yo, int n) {
        switch (op) {
            case SUM -> FloatKernels.float32(OpCode.SUM, xs, xo, ys, yo, n);
            case PROD -> {
                for (int i = 0; i < n; i += 2) {
                    float a = xs[xo + i], b = xs[xo + i + 1], c = ys[yo + i], d = ys[yo + i + 1];
                    float x = a * c - b * d, y = a * d + b * c;
                    if (x != x && y != y) {
                        x = recover(a, b, c, d, false);
                        y = recover(a, b, c, d, true);
                    }
                    xs[xo + i] = x;
                    xs[xo + i + 1] = y;
                }
            }
            default -> throw new AssertionError(op);
        }
    }

    /** {@code n} is the number of double values (2 per complex number, so even). */
    static void complex128(OpCode op, double[] xs, int xo, double[] ys, int yo, int n) {
        switch (op) {
            case SUM -> FloatKernels.float64(OpCode.SUM, xs, xo, ys, yo, n);
            case PROD -> {
                for (int i = 0; i < n; i += 2) {
                    double a = xs[xo + i], b = xs[xo + i + 1], c = ys[yo + i], d = ys[yo + i + 1];
                    double x = a * c - b * d, y = a * d + b * c;
                    if (x != x && y != y) {
                        x = recover(a, b, c, d, false);
                        y = recover(a, b, c, d, true);
                    }
                    xs[xo + i] = x;
                    xs[xo + i + 1] = y;
                }
            }
            default -> throw new AssertionError(op);
        }
    }

    /**
     * The NaN + iNaN branch of {@code __mulsc3}: the real ({@code imag == false}) or imaginary part
     * of the recovered product. Called once per part on this rare path, so nothing is allocated.
     */
    private static float recover(float a, float b, float c, float d, boolean imag) {
        float ac = a * c, bd = b * d, ad = a * d, bc = b * c;
        float x = ac - bd, y = ad + bc;
        boolean recalc = false;
        if (Float.isInfinite(a) || Float.isInfinite(b)) {
            a = Math.copySign(Float.isInfinite(a) ? 1f : 0f, a);
            b = Math.copySign(Float.isInfinite(b) ? 1f : 0f, b);
            c = Float.isNaN(c) ? Math.copySign(0f, c) : c;
            d = Float.isNaN(d) ? Math.copySign(0f, d) : d;
            recalc = true;
        }
        if (Float.isInfinite(c) || Float.isInfinite(d)) {
            c = Math.copySign(Float.isInfinite(c) ? 1f : 0f, c);
            d = Math.copySign(Float.isInfinite(d) ? 1f : 0f, d);
            a = Float.isNaN(a) ? Math.copySign(0f, a) : a;
            b = Float.isNaN(b) ? Math.copySign(0f, b) : b;
            recalc = true;
        }
        if (!recalc && (Float.isInfinite(ac) || Float.isInfinite(bd) || Float.isInfinite(ad)
                || Float.isInfinite(bc))) {
            a = Float.isNaN(a) ? Math.copySign(0f, a) : a;
            b = Float.isNaN(b) ? Math.copySign(0f, b) : b;
            c = Float.isNaN(c) ? Math.copySign(0f, c) : c;
            d = Float.isNaN(d) ? Math.copySign(0f, d) : d;
            recalc = true;
        }
        if (recalc) {
            x = Float.POSITIVE_INFINITY * (a * c - b * d);
            y = Float.POSITIVE_INFINITY * (a * d + b * c);
        }
        return imag ? y : x;
    }

    /**
     * The NaN + iNaN branch of {@code __muldc3}: the real ({@code imag == false}) or imaginary part
     * of the recovered product. Called once per part on this rare path, so nothing is allocated.
     */
    private static double recover(double a, double b, double c, double d, boolean imag) {
        double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
        double x = ac - bd, y = ad + bc;
        boolean recalc = false;
        if (Double.isInfinite(a) || Double.isInfinite(b)) {
            a = Math.copySign(Double.isInfinite(a) ? 1d : 0d, a);
            b = Math.copySign(Double.isInfinite(b) ? 1d : 0d, b);
            c = Double.isNaN(c) ? Math.copySign(0d, c) : c;
            d = Double.isNaN(d) ? Math.copySign(0d, d) : d;
            recalc = true;
        }
        if (Double.isInfinite(c) || Double.isInfinite(d)) {
            c = Math.copySign(Double.isInfinite(c) ? 1d : 0d, c);
            d = Math.copySign(Double.isInfinite(d) ? 1d : 0d, d);
            a = Double.isNaN(a) ? Math.copySign(0d, a) : a;
            b = Double.isNaN(b) ? Math.copySign(0d, b) : b;
            recalc = true;
        }
        if (!recalc && (Double.isInfinite(ac) || Double.isInfinite(bd) || Double.isInfinite(ad)
                || Double.isInfinite(bc))) {
            a = Double.isNaN(a) ? Math.copySign(0d, a) : a;
            b = Double.isNaN(b) ? Math.copySign(0d, b) : b;
            c = Double.isNaN(c) ? Math.copySign(0d, c) : c;
            d = Double.isNaN(d) ? Math.copySign(0d, d) : d;
            recalc = true;
        }
        if (recalc) {
            x = Double.POSITIVE_INFINITY * (a * c - b * d);
            y = Double.POSITIVE_INFINITY * (a * d + b * c);
        }
        return imag ? y : x;
    }
}
