package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

/** Random operands for reduction tests, by datatype name, in native byte order. */
final class OpValues {
    private OpValues() {
    }

    private static final double[] SPECIAL = {Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 0.0, -0.0, Double.MIN_VALUE, -1.0, 1.0};
    private static final long[] EDGE = {0, 1, -1, Byte.MIN_VALUE, Byte.MAX_VALUE, 0xff,
        Short.MIN_VALUE, Short.MAX_VALUE, 0xffff, Integer.MIN_VALUE, Integer.MAX_VALUE,
        Long.MIN_VALUE, Long.MAX_VALUE};

    /**
     * {@code count} elements. Round 0: full-range random; 1: small values (ties, zeros);
     * 2: edge values (extremes, NaN, infinities, signed zeros); 3: a mix of all three.
     */
    static byte[] random(String type, int count, Random rnd, int round) {
        int size = switch (type) {
            case "BYTE", "BOOLEAN", "PACKED" -> 1;
            case "CHAR", "SHORT" -> 2;
            case "INT", "FLOAT" -> 4;
            case "LONG", "DOUBLE", "FLOAT_COMPLEX", "INT2", "SHORT_INT", "FLOAT_INT" -> 8;
            default -> 16;
        };
        ByteBuffer b = ByteBuffer.allocate(count * size).order(ByteOrder.nativeOrder());
        for (int i = 0; i < count; i++) {
            int r = round == 3 ? rnd.nextInt(3) : round;
            int o = i * size;
            switch (type) {
                case "BOOLEAN" -> b.put(o, (byte) (rnd.nextInt(3) == 0 ? 0 : 1));
                case "BYTE", "PACKED" -> b.put(o, (byte) integer(rnd, r));
                case "CHAR", "SHORT" -> b.putShort(o, (short) integer(rnd, r));
                case "INT" -> b.putInt(o, (int) integer(rnd, r));
                case "LONG" -> b.putLong(o, integer(rnd, r));
                case "FLOAT" -> b.putFloat(o, (float) floating(rnd, r));
                case "DOUBLE" -> b.putDouble(o, floating(rnd, r));
                case "FLOAT_COMPLEX" -> {
                    b.putFloat(o, (float) floating(rnd, r));
                    b.putFloat(o + 4, (float) floating(rnd, r));
                }
                case "DOUBLE_COMPLEX" -> {
                    b.putDouble(o, floating(rnd, r));
                    b.putDouble(o + 8, floating(rnd, r));
                }
                case "INT2" -> {
                    b.putInt(o, (int) integer(rnd, r));
                    b.putInt(o + 4, index(rnd, r));
                }
                case "SHORT_INT" -> {
                    b.putShort(o, (short) integer(rnd, r));
                    b.putShort(o + 2, (short) rnd.nextInt()); // padding
                    b.putInt(o + 4, index(rnd, r));
                }
                case "FLOAT_INT" -> {
                    b.putFloat(o, (float) floating(rnd, r));
                    b.putInt(o + 4, index(rnd, r));
                }
                case "LONG_INT" -> {
                    b.putLong(o, integer(rnd, r));
                    b.putInt(o + 8, index(rnd, r));
                    b.putInt(o + 12, rnd.nextInt()); // padding
                }
                case "DOUBLE_INT" -> {
                    b.putDouble(o, floating(rnd, r));
                    b.putInt(o + 8, index(rnd, r));
                    b.putInt(o + 12, rnd.nextInt()); // padding
                }
                default -> throw new AssertionError(type);
            }
        }
        return b.array();
    }

    private static long integer(Random rnd, int r) {
        return switch (r) {
            case 0 -> rnd.nextLong();
            case 1 -> rnd.nextInt(4) - 1;
            default -> EDGE[rnd.nextInt(EDGE.length)];
        };
    }

    private static double floating(Random rnd, int r) {
        return switch (r) {
            case 0 -> (rnd.nextDouble() - 0.5) * Math.pow(2, rnd.nextInt(40) - 20);
            case 1 -> rnd.nextInt(4) - 1;
            default -> SPECIAL[rnd.nextInt(SPECIAL.length)];
        };
    }

    private static int index(Random rnd, int r) {
        return r == 0 ? rnd.nextInt() : rnd.nextInt(4);
    }
}
