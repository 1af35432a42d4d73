package mpi;

import java.nio.ByteBuffer;

/**
 * A straightforward sequential model of the predefined operations, element by element with
 * ByteBuffer accessors: {@code io[i] = in[i] op io[i]}. The floating-point MAX/MIN rule is
 * spelled out case by case (NaN in {@code in} wins, NaN only in {@code io} loses, equal values
 * such as -0.0 and 0.0 give {@code in}), which is what C's {@code io > in ? io : in} does.
 */
final class OpReference {
    private OpReference() {
    }

    static void apply(String op, String type, ByteBuffer in, ByteBuffer io, int count) {
        if (op.equals("NO_OP")) {
            return;
        }
        if (op.equals("REPLACE")) {
            io.put(0, in, 0, in.capacity());
            return;
        }
        for (int i = 0; i < count; i++) {
            switch (type) {
                case "BYTE", "BOOLEAN" -> io.put(i, (byte) integer(op,
                        Byte.toUnsignedLong(io.get(i)), Byte.toUnsignedLong(in.get(i))));
                case "CHAR" -> io.putChar(2 * i, (char) integer(op, io.getChar(2 * i),
                        in.getChar(2 * i)));
                case "SHORT" -> io.putShort(2 * i, (short) integer(op, io.getShort(2 * i),
                        in.getShort(2 * i)));
                case "INT" -> io.putInt(4 * i, (int) integer(op, io.getInt(4 * i),
                        in.getInt(4 * i)));
                case "LONG" -> io.putLong(8 * i, integer(op, io.getLong(8 * i), in.getLong(8 * i)));
                case "FLOAT" -> io.putFloat(4 * i, (float) floating(op, io.getFloat(4 * i),
                        in.getFloat(4 * i), true));
                case "DOUBLE" -> io.putDouble(8 * i, floating(op, io.getDouble(8 * i),
                        in.getDouble(8 * i), false));
                case "FLOAT_COMPLEX" -> complexFloat(op, in, io, 8 * i);
                case "DOUBLE_COMPLEX" -> complexDouble(op, in, io, 16 * i);
                case "INT2" -> loc(op, io, 8 * i, 4, io.getInt(8 * i), in.getInt(8 * i), in, 4);
                case "SHORT_INT" -> loc(op, io, 8 * i, 4, io.getShort(8 * i), in.getShort(8 * i),
                        in, 2);
                case "LONG_INT" -> loc(op, io, 16 * i, 8, io.getLong(16 * i), in.getLong(16 * i),
                        in, 8);
                case "FLOAT_INT" -> loc(op, io, 8 * i, 4, io.getFloat(8 * i), in.getFloat(8 * i),
                        in, 4);
                case "DOUBLE_INT" -> loc(op, io, 16 * i, 8, io.getDouble(16 * i),
                        in.getDouble(16 * i), in, 8);
                default -> throw new AssertionError(type);
            }
        }
    }

    /** x is the inout value, y the in value; the caller narrows the result. */
    static long integer(String op, long x, long y) {
        return switch (op) {
            case "MAX" -> Math.max(x, y);
            case "MIN" -> Math.min(x, y);
            case "SUM" -> x + y;
            case "PROD" -> x * y;
            case "LAND" -> (x != 0) & (y != 0) ? 1 : 0;
            case "LOR" -> (x != 0) | (y != 0) ? 1 : 0;
            case "LXOR" -> (x != 0) ^ (y != 0) ? 1 : 0;
            case "BAND" -> x & y;
            case "BOR" -> x | y;
            case "BXOR" -> x ^ y;
            default -> throw new AssertionError(op);
        };
    }

    static double floating(String op, double x, double y, boolean single) {
        return switch (op) {
            case "SUM" -> single ? (float) x + (float) y : x + y;
            case "PROD" -> single ? (float) x * (float) y : x * y;
            case "MAX", "MIN" -> {
                if (Double.isNaN(y) || Double.isNaN(x) || x == y) {
                    yield y;
                }
                yield op.equals("MAX") ? Math.max(x, y) : Math.min(x, y);
            }
            default -> throw new AssertionError(op);
        };
    }

    private static void complexFloat(String op, ByteBuffer in, ByteBuffer io, int o) {
        float a = io.getFloat(o), b = io.getFloat(o + 4), c = in.getFloat(o), d = in.getFloat(o + 4);
        if (op.equals("SUM")) {
            io.putFloat(o, a + c).putFloat(o + 4, b + d);
        } else {
            float re = a * c - b * d, im = a * d + b * c;
            if (Float.isNaN(re) && Float.isNaN(im)) {
                float[] r = annexG(a, b, c, d);
                re = r[0];
                im = r[1];
            }
            io.putFloat(o, re).putFloat(o + 4, im);
        }
    }

    private static void complexDouble(String op, ByteBuffer in, ByteBuffer io, int o) {
        double a = io.getDouble(o), b = io.getDouble(o + 8), c = in.getDouble(o),
                d = in.getDouble(o + 8);
        if (op.equals("SUM")) {
            io.putDouble(o, a + c).putDouble(o + 8, b + d);
        } else {
            double re = a * c - b * d, im = a * d + b * c;
            if (Double.isNaN(re) && Double.isNaN(im)) {
                double[] r = annexG(a, b, c, d);
                re = r[0];
                im = r[1];
            }
            io.putDouble(o, re).putDouble(o + 8, im);
        }
    }

    /** C99 Annex G, G.5.1 example 1 (_Cmultd), the recovery part, in double. */
    static double[] annexG(double a, double b, double c, double d) {
        double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
        double x = ac - bd, y = ad + bc;
        boolean recalc = false;
        if (Double.isInfinite(a) || Double.isInfinite(b)) {
            a = Math.copySign(Double.isInfinite(a) ? 1.0 : 0.0, a);
            b = Math.copySign(Double.isInfinite(b) ? 1.0 : 0.0, b);
            if (Double.isNaN(c)) c = Math.copySign(0.0, c);
            if (Double.isNaN(d)) d = Math.copySign(0.0, d);
            recalc = true;
        }
        if (Double.isInfinite(c) || Double.isInfinite(d)) {
            c = Math.copySign(Double.isInfinite(c) ? 1.0 : 0.0, c);
            d = Math.copySign(Double.isInfinite(d) ? 1.0 : 0.0, d);
            if (Double.isNaN(a)) a = Math.copySign(0.0, a);
            if (Double.isNaN(b)) b = Math.copySign(0.0, b);
            recalc = true;
        }
        if (!recalc && (Double.isInfinite(ac) || Double.isInfinite(bd) || Double.isInfinite(ad)
                || Double.isInfinite(bc))) {
            if (Double.isNaN(a)) a = Math.copySign(0.0, a);
            if (Double.isNaN(b)) b = Math.copySign(0.0, b);
            if (Double.isNaN(c)) c = Math.copySign(0.0, c);
            if (Double.isNaN(d)) d = Math.copySign(0.0, d);
            recalc = true;
        }
        if (recalc) {
            x = Double.POSITIVE_INFINITY * (a * c - b * d);
            y = Double.POSITIVE_INFINITY * (a * d + b * c);
        }
        return new double[] {x, y};
    }

    /** The same in float arithmetic. */
    static float[] annexG(float a, float b, float c, float d) {
        float ac = a * c, bd = b * d, ad = a * d, bc = b * c;
        float x = ac - bd, y = ad + bc;
        boolean recalc = false;
        if (Float.isInfinite(a) || Float.isInfinite(b)) {
            a = Math.copySign(Float.isInfinite(a) ? 1f : 0f, a);
            b = Math.copySign(Float.isInfinite(b) ? 1f : 0f, b);
            if (Float.isNaN(c)) c = Math.copySign(0f, c);
            if (Float.isNaN(d)) d = Math.copySign(0f, d);
            recalc = true;
        }
        if (Float.isInfinite(c) || Float.isInfinite(d)) {
            c = Math.copySign(Float.isInfinite(c) ? 1f : 0f, c);
            d = Math.copySign(Float.isInfinite(d) ? 1f : 0f, d);
            if (Float.isNaN(a)) a = Math.copySign(0f, a);
            if (Float.isNaN(b)) b = Math.copySign(0f, b);
            recalc = true;
        }
        if (!recalc && (Float.isInfinite(ac) || Float.isInfinite(bd) || Float.isInfinite(ad)
                || Float.isInfinite(bc))) {
            if (Float.isNaN(a)) a = Math.copySign(0f, a);
            if (Float.isNaN(b)) b = Math.copySign(0f, b);
            if (Float.isNaN(c)) c = Math.copySign(0f, c);
            if (Float.isNaN(d)) d = Math.copySign(0f, d);
            recalc = true;
        }
        if (recalc) {
            x = Float.POSITIVE_INFINITY * (a * c - b * d);
            y = Float.POSITIVE_INFINITY * (a * d + b * c);
        }
        return new float[] {x, y};
    }

    /** MAXLOC/MINLOC on integer values (exact in long). */
    private static void loc(String op, ByteBuffer io, int o, int indexOff, long x, long y,
                            ByteBuffer in, int valueBytes) {
        boolean better = op.equals("MAXLOC") ? y > x : y < x;
        if (better) {
            for (int k = 0; k < valueBytes; k++) {
                io.put(o + k, in.get(o + k));
            }
            io.putInt(o + indexOff, in.getInt(o + indexOff));
        } else if (x == y) {
            io.putInt(o + indexOff, Math.min(io.getInt(o + indexOff), in.getInt(o + indexOff)));
        }
    }

    /** MAXLOC/MINLOC: x is the inout value, y the in value (compared as double: exact here). */
    private static void loc(String op, ByteBuffer io, int o, int indexOff, double x, double y,
                            ByteBuffer in, int valueBytes) {
        boolean better = op.equals("MAXLOC") ? y > x : y < x;
        if (better) {
            for (int k = 0; k < valueBytes; k++) {
                io.put(o + k, in.get(o + k));
            }
            io.putInt(o + indexOff, in.getInt(o + indexOff));
        } else if (x == y) {
            io.putInt(o + indexOff, Math.min(io.getInt(o + indexOff), in.getInt(o + indexOff)));
        }
    }
}
