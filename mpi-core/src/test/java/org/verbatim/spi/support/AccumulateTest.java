package org.verbatim.spi.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.verbatim.spi.Access;
import org.verbatim.spi.CompletionStatus;
import org.verbatim.spi.MemoryRegistration;

/** Accumulate of every element kind and operation, chunked, against a reference in Java. */
class AccumulateTest {
    /** Odd element count: several chunks of 224 bytes with a short last one, at an odd address. */
    private static final int COUNT = 301;

    @Test
    void everyKindAndOperationMatchesTheReference() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            long wrId = 0;
            for (ElementKind kind : ElementKind.values()) {
                for (ReduceOp op : ReduceOp.values()) {
                    if (!op.supports(kind)) {
                        continue;
                    }
                    int size = kind.size();
                    MemorySegment target = h.arena.allocate((long) COUNT * size + 1, 8).asSlice(1);
                    MemorySegment local = h.arena.allocate((long) COUNT * size, 8);
                    for (int i = 0; i < COUNT; i++) {
                        set(kind, target, i, i % 7 - 3);
                        set(kind, local, i, (i * 5) % 11 - 5);
                    }
                    MemoryRegistration reg = h.ranks[1].register(target, Access.ALL);
                    long id = wrId++;
                    h.post(() -> h.endpoint(0, 1).accumulate(local, target.address(),
                            reg.remoteKey(), kind, op, id));
                    assertEquals(CompletionStatus.OK, h.awaitCompletion(0, id), kind + " " + op);
                    for (int i = 0; i < COUNT; i++) {
                        double expected = reference(op, i % 7 - 3, (i * 5) % 11 - 5, kind);
                        assertEquals(expected, get(kind, target, i), kind + " " + op + " element " + i);
                    }
                    reg.close();
                }
            }
        }
    }

    @Test
    void accumulatesFromFourRanksAddUp() {
        try (EmulationHarness h = new EmulationHarness(5)) {
            MemorySegment target = h.arena.allocate(8L * 100, 8);
            MemoryRegistration reg = h.ranks[0].register(target, Access.ALL);
            MemorySegment ones = h.arena.allocate(8L * 100, 8);
            for (int i = 0; i < 100; i++) {
                ones.set(ValueLayout.JAVA_LONG, 8L * i, 1);
            }
            for (int round = 0; round < 50; round++) {
                for (int r = 1; r <= 4; r++) {
                    int rank = r;
                    long id = round;
                    h.post(() -> h.endpoint(rank, 0).accumulate(ones, target.address(),
                            reg.remoteKey(), ElementKind.INT64, ReduceOp.SUM, id));
                }
            }
            for (int r = 1; r <= 4; r++) {
                int rank = r;
                h.await(() -> h.recorders[rank].completions.size() == 50, "accumulates of " + r);
            }
            for (int i = 0; i < 100; i++) {
                assertEquals(200, target.get(ValueLayout.JAVA_LONG, 8L * i));
            }
        }
    }

    @Test
    void misuseIsRefusedAtPostAndBadAccessAtTheTarget() {
        try (EmulationHarness h = new EmulationHarness(2)) {
            MemorySegment target = h.arena.allocate(64, 8);
            MemoryRegistration noAtomic = h.ranks[1].register(target,
                    Access.REMOTE_READ | Access.REMOTE_WRITE);
            MemorySegment local = h.arena.allocate(64, 8);
            EmulatedEndpoint e = h.endpoint(0, 1);
            assertThrows(IllegalArgumentException.class, () -> e.accumulate(local, target.address(),
                    noAtomic.remoteKey(), ElementKind.FLOAT64, ReduceOp.BXOR, 1));
            assertThrows(IllegalArgumentException.class, () -> e.accumulate(local.asSlice(0, 6),
                    target.address(), noAtomic.remoteKey(), ElementKind.INT32, ReduceOp.SUM, 1));
            h.post(() -> e.accumulate(local, target.address(), noAtomic.remoteKey(),
                    ElementKind.INT32, ReduceOp.SUM, 2));
            assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, h.awaitCompletion(0, 2));
        }
    }

    private static void set(ElementKind kind, MemorySegment m, int i, int v) {
        switch (kind) {
            case INT32 -> m.set(ValueLayout.JAVA_INT_UNALIGNED, 4L * i, v);
            case INT64 -> m.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i, v * 1_000_000_007L);
            case FLOAT32 -> m.set(ValueLayout.JAVA_FLOAT_UNALIGNED, 4L * i, v * 0.5f);
            case FLOAT64 -> m.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8L * i, v * 0.25);
        }
    }

    private static double get(ElementKind kind, MemorySegment m, int i) {
        return switch (kind) {
            case INT32 -> m.get(ValueLayout.JAVA_INT_UNALIGNED, 4L * i);
            case INT64 -> m.get(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i);
            case FLOAT32 -> m.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 4L * i);
            case FLOAT64 -> m.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8L * i);
        };
    }

    /** The element {@code t op x} as the test stored them, in the kind's arithmetic. */
    private static double reference(ReduceOp op, int t, int x, ElementKind kind) {
        switch (kind) {
            case INT32 -> {
                return switch (op) {
                    case SUM -> t + x;
                    case PROD -> t * x;
                    case MIN -> Math.min(t, x);
                    case MAX -> Math.max(t, x);
                    case BAND -> t & x;
                    case BOR -> t | x;
                    case BXOR -> t ^ x;
                    case REPLACE -> x;
                };
            }
            case INT64 -> {
                long a = t * 1_000_000_007L;
                long b = x * 1_000_000_007L;
                return switch (op) {
                    case SUM -> a + b;
                    case PROD -> a * b;
                    case MIN -> Math.min(a, b);
                    case MAX -> Math.max(a, b);
                    case BAND -> a & b;
                    case BOR -> a | b;
                    case BXOR -> a ^ b;
                    case REPLACE -> b;
                };
            }
            case FLOAT32 -> {
                float a = t * 0.5f;
                float b = x * 0.5f;
                return switch (op) {
                    case SUM -> a + b;
                    case PROD -> a * b;
                    case MIN -> Math.min(a, b);
                    case MAX -> Math.max(a, b);
                    case REPLACE -> b;
                    default -> throw new AssertionError(op);
                };
            }
            default -> {
                double a = t * 0.25;
                double b = x * 0.25;
                return switch (op) {
                    case SUM -> a + b;
                    case PROD -> a * b;
                    case MIN -> Math.min(a, b);
                    case MAX -> Math.max(a, b);
                    case REPLACE -> b;
                    default -> throw new AssertionError(op);
                };
            }
        }
    }
}
