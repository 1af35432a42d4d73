package org.verbatim.mpitests;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Win;

/**
 * Accumulate with every predefined operation on every type it applies to, from every rank into
 * every rank, checked against a sequential reference (the operations chosen are order-independent
 * on these values, so the reference does not depend on the order the target applied them in).
 */
final class RmaOpsChecks {
    private static final int J = 4;

    private RmaOpsChecks() {
    }

    private record T(String name, Datatype type, int size, boolean floating) {
    }

    static void everyOp(RmaProgram t) throws MPIException {
        T[] types = {new T("BYTE", MPI.BYTE, 1, false), new T("SHORT", MPI.SHORT, 2, false),
                new T("CHAR", MPI.CHAR, 2, false), new T("INT", MPI.INT, 4, false),
                new T("LONG", MPI.LONG, 8, false), new T("FLOAT", MPI.FLOAT, 4, true),
                new T("DOUBLE", MPI.DOUBLE, 8, true)};
        Op[] intOps = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN, MPI.LAND, MPI.LOR, MPI.LXOR, MPI.BAND,
                MPI.BOR, MPI.BXOR};
        String[] intNames = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR", "BAND", "BOR",
                "BXOR"};
        for (T ty : types) {
            int nops = ty.floating ? 4 : intOps.length;
            Win win = Win.allocate((long) nops * J * ty.size, ty.size, MPI.INFO_NULL, t.world);
            MemorySegment mem = win.getBase();
            for (int o = 0; o < nops; o++) {
                for (int j = 0; j < J; j++) {
                    store(ty, mem, o * J + j, initial(j));
                }
            }
            win.fence(MPI.MODE_NOPRECEDE);
            try (Arena arena = Arena.ofConfined()) {
                for (int target = 0; target < t.p; target++) {
                    for (int o = 0; o < nops; o++) {
                        MemorySegment origin = arena.allocate((long) J * ty.size, 8);
                        for (int j = 0; j < J; j++) {
                            store(ty, origin, j, value(intNames[o], t.rank, j));
                        }
                        win.accumulate(origin, J, ty.type, target, (long) o * J, J, ty.type,
                                intOps[o]);
                    }
                }
                win.fence(MPI.MODE_NOSUCCEED);
            }
            for (int o = 0; o < nops; o++) {
                for (int j = 0; j < J; j++) {
                    long ref = initial(j);
                    for (int r = 0; r < t.p; r++) {
                        ref = apply(intNames[o], ty, ref, value(intNames[o], r, j));
                    }
                    t.expect("accumulate " + intNames[o] + " on " + ty.name, ref,
                            load(ty, mem, o * J + j));
                }
            }
            win.free();
        }
        pairs(t);
    }

    /** MAXLOC and MINLOC on INT2 pairs: the index of the extreme value, smallest on ties. */
    private static void pairs(RmaProgram t) throws MPIException {
        Win win = Win.allocate(2L * J * 8, 8, MPI.INFO_NULL, t.world);
        MemorySegment mem = win.getBase();
        for (int i = 0; i < 2 * J; i++) {
            mem.setAtIndex(ValueLayout.JAVA_INT, 2 * i, 2);
            mem.setAtIndex(ValueLayout.JAVA_INT, 2 * i + 1, 1000);
        }
        win.fence(MPI.MODE_NOPRECEDE);
        try (Arena arena = Arena.ofConfined()) {
            for (int target = 0; target < t.p; target++) {
                MemorySegment o = arena.allocate(8L * J, 8);
                for (int j = 0; j < J; j++) {
                    o.setAtIndex(ValueLayout.JAVA_INT, 2 * j, (t.rank + j) % 4);
                    o.setAtIndex(ValueLayout.JAVA_INT, 2 * j + 1, t.rank);
                }
                win.accumulate(o, J, MPI.INT2, target, 0, J, MPI.INT2, MPI.MAXLOC);
                win.accumulate(o, J, MPI.INT2, target, J, J, MPI.INT2, MPI.MINLOC);
            }
            win.fence(MPI.MODE_NOSUCCEED);
        }
        for (int j = 0; j < J; j++) {
            int maxV = 2, maxI = 1000, minV = 2, minI = 1000;
            for (int r = 0; r < t.p; r++) {
                int v = (r + j) % 4;
                if (v > maxV || (v == maxV && r < maxI)) {
                    maxV = v;
                    maxI = r;
                }
                if (v < minV || (v == minV && r < minI)) {
                    minV = v;
                    minI = r;
                }
            }
            t.expect("MAXLOC value", maxV, mem.getAtIndex(ValueLayout.JAVA_INT, 2 * j));
            t.expect("MAXLOC index", maxI, mem.getAtIndex(ValueLayout.JAVA_INT, 2 * j + 1));
            t.expect("MINLOC value", minV, mem.getAtIndex(ValueLayout.JAVA_INT, 2 * (J + j)));
            t.expect("MINLOC index", minI, mem.getAtIndex(ValueLayout.JAVA_INT, 2 * (J + j) + 1));
        }
        win.free();
    }

    private static long initial(int j) {
        return j % 3 + 1;
    }

    private static long value(String op, int r, int j) {
        long v = (r + 2L * j) % 4;
        return op.equals("PROD") ? v + 1 : v;
    }

    private static long apply(String op, T ty, long a, long b) {
        long r = switch (op) {
            case "SUM" -> a + b;
            case "PROD" -> a * b;
            case "MAX" -> Math.max(a, b);
            case "MIN" -> Math.min(a, b);
            case "LAND" -> (a != 0 && b != 0) ? 1 : 0;
            case "LOR" -> (a != 0 || b != 0) ? 1 : 0;
            case "LXOR" -> ((a != 0) != (b != 0)) ? 1 : 0;
            case "BAND" -> a & b;
            case "BOR" -> a | b;
            case "BXOR" -> a ^ b;
            default -> throw new IllegalArgumentException(op);
        };
        return ty.floating ? r : truncate(ty, r);
    }

    private static long truncate(T ty, long v) {
        return switch (ty.size) {
            case 1 -> v & 0xff;
            case 2 -> ty.name.equals("CHAR") ? v & 0xffff : (short) v;
            case 4 -> (int) v;
            default -> v;
        };
    }

    private static void store(T ty, MemorySegment m, long i, long v) {
        switch (ty.name) {
            case "BYTE" -> m.set(ValueLayout.JAVA_BYTE, i, (byte) v);
            case "SHORT", "CHAR" -> m.set(ValueLayout.JAVA_SHORT, 2 * i, (short) v);
            case "INT" -> m.set(ValueLayout.JAVA_INT, 4 * i, (int) v);
            case "LONG" -> m.set(ValueLayout.JAVA_LONG, 8 * i, v);
            case "FLOAT" -> m.set(ValueLayout.JAVA_FLOAT, 4 * i, v);
            default -> m.set(ValueLayout.JAVA_DOUBLE, 8 * i, v);
        }
    }

    private static long load(T ty, MemorySegment m, long i) {
        return switch (ty.name) {
            case "BYTE" -> m.get(ValueLayout.JAVA_BYTE, i) & 0xff;
            case "SHORT" -> m.get(ValueLayout.JAVA_SHORT, 2 * i);
            case "CHAR" -> m.get(ValueLayout.JAVA_SHORT, 2 * i) & 0xffff;
            case "INT" -> m.get(ValueLayout.JAVA_INT, 4 * i);
            case "LONG" -> m.get(ValueLayout.JAVA_LONG, 8 * i);
            case "FLOAT" -> (long) m.get(ValueLayout.JAVA_FLOAT, 4 * i);
            default -> (long) m.get(ValueLayout.JAVA_DOUBLE, 8 * i);
        };
    }
}
