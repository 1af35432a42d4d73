package org.verbatim.runtime.op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * 32- and 64-bit integer kernels, one loop per operation so that each loop body is a single
 * branch-free expression the JIT can unroll (and vectorize where it can). {@code x} is the inout
 * element, {@code y} the in element, as in Open MPI's {@code *out = op(*out, *in)}.
 */
final class IntKernels {
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    private IntKernels() {
    }

    static void int32(OpCode op, MemorySegment in, long inOff, MemorySegment io, long ioOff,
                      long count) {
        final long end = count * 4;
        switch (op) {
            case MAX -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, x > y ? x : y);
                }
            }
            case MIN -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, x < y ? x : y);
                }
            }
            case SUM -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, x + y);
                }
            }
            case PROD -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, x * y);
                }
            }
            case LAND -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, (x != 0 && y != 0) ? 1 : 0);
                }
            }
            case LOR -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, (x != 0 || y != 0) ? 1 : 0);
                }
            }
            case LXOR -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, ((x != 0) != (y != 0)) ? 1 : 0);
                }
            }
            case BAND -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, x & y);
                }
            }
            case BOR -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, x | y);
                }
            }
            case BXOR -> {
                for (long i = 0; i < end; i += 4) {
                    int x = io.get(I32, ioOff + i), y = in.get(I32, inOff + i);
                    io.set(I32, ioOff + i, x ^ y);
                }
            }
            default -> throw new AssertionError(op);
        }
    }

    static void int64(OpCode op, MemorySegment in, long inOff, MemorySegment io, long ioOff,
                      long count) {
        final long end = count * 8;
        switch (op) {
            case MAX -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, x > y ? x : y);
                }
            }
            case MIN -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, x < y ? x : y);
                }
            }
            case SUM -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, x + y);
                }
            }
            case PROD -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, x * y);
                }
            }
            case LAND -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, (x != 0 && y != 0) ? 1 : 0);
                }
            }
            case LOR -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, (x != 0 || y != 0) ? 1 : 0);
                }
            }
            case LXOR -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, ((x != 0) != (y != 0)) ? 1 : 0);
                }
            }
            case BAND -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, x & y);
                }
            }
            case BOR -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, x | y);
                }
            }
            case BXOR -> {
                for (long i = 0; i < end; i += 8) {
                    long x = io.get(I64, ioOff + i), y = in.get(I64, inOff + i);
                    io.set(I64, ioOff + i, x ^ y);
                }
            }
            default -> throw new AssertionError(op);
        }
    }
}
