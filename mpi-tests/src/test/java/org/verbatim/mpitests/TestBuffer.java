package org.verbatim.mpitests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import mpi.Datatype;
import mpi.MPI;

/**
 * A message buffer of one kind (Java array, heap Buffer, direct Buffer, MPI.slice of an array or
 * of a direct Buffer, MemorySegment) with guard elements after it (and before it for slices), so
 * a receive can be checked for writing exactly its bytes and nothing else.
 */
final class TestBuffer {
    enum Kind { ARRAY, HEAP, DIRECT, SLICE_ARRAY, SLICE_DIRECT, SEGMENT }

    static final int GUARD_ELEMENTS = 3;
    static final int SLICE_OFFSET = 5;
    private static final byte GUARD = 0x5A;
    private static final int PERIOD = 65521;
    private static final byte[] TABLE = new byte[PERIOD + 65536];

    static {
        long x = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < TABLE.length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            TABLE[i] = (byte) x;
        }
    }

    final Kind kind;
    final Datatype type;
    final int count;
    /** What the MPI call gets. */
    final Object buf;
    /** The message's bytes inside the buffer. */
    final MemorySegment data;
    private final MemorySegment before;
    private final MemorySegment after;

    private TestBuffer(Kind kind, Datatype type, int count, Object buf, MemorySegment whole,
                       int offsetElements, int elem) {
        this.kind = kind;
        this.type = type;
        this.count = count;
        this.buf = buf;
        long off = (long) offsetElements * elem;
        long bytes = (long) count * elem;
        this.before = whole.asSlice(0, off);
        this.data = whole.asSlice(off, bytes);
        this.after = whole.asSlice(off + bytes);
    }

    static int elementSize(Datatype t) {
        if (t == MPI.BYTE || t == MPI.BOOLEAN) {
            return 1;
        } else if (t == MPI.CHAR || t == MPI.SHORT) {
            return 2;
        } else if (t == MPI.INT || t == MPI.FLOAT) {
            return 4;
        } else if (t == MPI.LONG || t == MPI.DOUBLE) {
            return 8;
        }
        throw new IllegalArgumentException("no test buffers for " + t);
    }

    static TestBuffer create(Kind kind, Datatype type, int count, Arena arena) {
        int elem = elementSize(type);
        int off = (kind == Kind.SLICE_ARRAY || kind == Kind.SLICE_DIRECT) ? SLICE_OFFSET : 0;
        int n = off + count + GUARD_ELEMENTS;
        TestBuffer b = switch (kind) {
            case ARRAY -> {
                Object a = newArray(type, n);
                yield new TestBuffer(kind, type, count, a, arraySegment(a), 0, elem);
            }
            case HEAP -> {
                Object a = newArray(type, n);
                yield new TestBuffer(kind, type, count, wrap(a), arraySegment(a), 0, elem);
            }
            case DIRECT -> {
                Buffer d = direct(type, n);
                yield new TestBuffer(kind, type, count, d, MemorySegment.ofBuffer(d), 0, elem);
            }
            case SLICE_ARRAY -> {
                Object a = newArray(type, n);
                yield new TestBuffer(kind, type, count, sliceArray(a, off), arraySegment(a), off,
                        elem);
            }
            case SLICE_DIRECT -> {
                Buffer d = direct(type, n);
                MemorySegment whole = MemorySegment.ofBuffer(d);
                yield new TestBuffer(kind, type, count, sliceBuffer(d, off), whole, off, elem);
            }
            case SEGMENT -> {
                MemorySegment s = arena.allocate((long) n * elem, 8);
                yield new TestBuffer(kind, type, count, s, s, 0, elem);
            }
        };
        b.poison();
        return b;
    }

    /** Fills the message bytes with the pattern of {@code seed}, and the guards. */
    void fill(int seed) {
        guards();
        long pos = 0;
        long n = data.byteSize();
        while (pos < n) {
            int start = start(seed, pos);
            int len = (int) Math.min(65536, n - pos);
            MemorySegment.copy(MemorySegment.ofArray(TABLE), start, data, pos, len);
            pos += len;
        }
    }

    /** Fills the message bytes with a value no pattern is made of, and the guards. */
    void poison() {
        guards();
        data.fill((byte) 0xEE);
    }

    private void guards() {
        before.fill(GUARD);
        after.fill(GUARD);
    }

    /** Null if the message bytes hold the pattern of {@code seed} and the guards are intact. */
    String verify(int seed) {
        return verify(seed, data.byteSize());
    }

    /** As {@link #verify(int)} for the first {@code bytes} of the message only. */
    String verify(int seed, long bytes) {
        long pos = 0;
        while (pos < bytes) {
            int start = start(seed, pos);
            int len = (int) Math.min(65536, bytes - pos);
            long m = MemorySegment.mismatch(data, pos, pos + len, MemorySegment.ofArray(TABLE),
                    start, start + len);
            if (m >= 0) {
                return "byte " + (pos + m) + " of " + bytes + " is "
                        + data.get(ValueLayout.JAVA_BYTE, pos + m) + ", expected "
                        + TABLE[start + (int) m];
            }
            pos += len;
        }
        String g = guardProblem(before, "before the buffer start");
        return g != null ? g : guardProblem(after, "after the message");
    }

    /** Null if the bytes past the first {@code bytes} of the message are untouched (poison). */
    String untouchedFrom(long bytes) {
        for (long i = bytes; i < data.byteSize(); i++) {
            if (data.get(ValueLayout.JAVA_BYTE, i) != (byte) 0xEE) {
                return "byte " + i + " was written (only " + bytes + " may be)";
            }
        }
        return guardProblem(after, "after the buffer");
    }

    private static String guardProblem(MemorySegment guard, String where) {
        for (long i = 0; i < guard.byteSize(); i++) {
            if (guard.get(ValueLayout.JAVA_BYTE, i) != GUARD) {
                return "guard byte " + i + " " + where + " was overwritten";
            }
        }
        return null;
    }

    private static int start(int seed, long pos) {
        return (int) Math.floorMod(pos + seed * 7919L, (long) PERIOD);
    }

    @Override
    public String toString() {
        return kind + " " + type + " x" + count;
    }

    // ------------------------------------------------------------------ per type

    static Object newArray(Datatype t, int n) {
        if (t == MPI.BYTE) {
            return new byte[n];
        } else if (t == MPI.CHAR) {
            return new char[n];
        } else if (t == MPI.SHORT) {
            return new short[n];
        } else if (t == MPI.INT) {
            return new int[n];
        } else if (t == MPI.LONG) {
            return new long[n];
        } else if (t == MPI.FLOAT) {
            return new float[n];
        } else if (t == MPI.DOUBLE) {
            return new double[n];
        }
        throw new IllegalArgumentException("no arrays for " + t);
    }

    static MemorySegment arraySegment(Object a) {
        return switch (a) {
            case byte[] x -> MemorySegment.ofArray(x);
            case char[] x -> MemorySegment.ofArray(x);
            case short[] x -> MemorySegment.ofArray(x);
            case int[] x -> MemorySegment.ofArray(x);
            case long[] x -> MemorySegment.ofArray(x);
            case float[] x -> MemorySegment.ofArray(x);
            case double[] x -> MemorySegment.ofArray(x);
            default -> throw new IllegalArgumentException(a.getClass().getName());
        };
    }

    static Buffer wrap(Object a) {
        return switch (a) {
            case byte[] x -> ByteBuffer.wrap(x);
            case char[] x -> CharBuffer.wrap(x);
            case short[] x -> ShortBuffer.wrap(x);
            case int[] x -> IntBuffer.wrap(x);
            case long[] x -> LongBuffer.wrap(x);
            case float[] x -> FloatBuffer.wrap(x);
            case double[] x -> DoubleBuffer.wrap(x);
            default -> throw new IllegalArgumentException(a.getClass().getName());
        };
    }

    static Buffer sliceArray(Object a, int off) {
        return switch (a) {
            case byte[] x -> MPI.slice(x, off);
            case char[] x -> MPI.slice(x, off);
            case short[] x -> MPI.slice(x, off);
            case int[] x -> MPI.slice(x, off);
            case long[] x -> MPI.slice(x, off);
            case float[] x -> MPI.slice(x, off);
            case double[] x -> MPI.slice(x, off);
            default -> throw new IllegalArgumentException(a.getClass().getName());
        };
    }

    static Buffer direct(Datatype t, int n) {
        if (t == MPI.BYTE) {
            return MPI.newByteBuffer(n);
        } else if (t == MPI.CHAR) {
            return MPI.newCharBuffer(n);
        } else if (t == MPI.SHORT) {
            return MPI.newShortBuffer(n);
        } else if (t == MPI.INT) {
            return MPI.newIntBuffer(n);
        } else if (t == MPI.LONG) {
            return MPI.newLongBuffer(n);
        } else if (t == MPI.FLOAT) {
            return MPI.newFloatBuffer(n);
        } else if (t == MPI.DOUBLE) {
            return MPI.newDoubleBuffer(n);
        }
        throw new IllegalArgumentException("no direct buffers for " + t);
    }

    static Buffer sliceBuffer(Buffer b, int off) {
        return switch (b) {
            case ByteBuffer x -> MPI.slice(x, off);
            case CharBuffer x -> MPI.slice(x, off);
            case ShortBuffer x -> MPI.slice(x, off);
            case IntBuffer x -> MPI.slice(x, off);
            case LongBuffer x -> MPI.slice(x, off);
            case FloatBuffer x -> MPI.slice(x, off);
            case DoubleBuffer x -> MPI.slice(x, off);
            default -> throw new IllegalArgumentException(b.getClass().getName());
        };
    }
}
