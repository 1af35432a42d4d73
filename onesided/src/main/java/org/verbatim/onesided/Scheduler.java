package org.verbatim.onesided;

import java.util.ArrayList;
import java.util.List;

/**
 * The issue order of held operations (the scheduling paper): plain gets go first and are then
 * interleaved with the other operations, so that data flows in both directions at once and the
 * gets, whose local completion the origin waits for, are not last. Everything except plain gets
 * keeps its order, which keeps MPI's ordering of accumulates from one origin (and a put and an
 * accumulate to one location are erroneous in one epoch anyway).
 */
final class Scheduler {
    private Scheduler() {
    }

    static List<HeldOp> order(List<HeldOp> held, boolean reorder) {
        if (!reorder || held.size() < 2) {
            return new ArrayList<>(held);
        }
        List<HeldOp> gets = new ArrayList<>();
        List<HeldOp> rest = new ArrayList<>();
        for (HeldOp h : held) {
            (h.kind() == HeldOp.Kind.GET ? gets : rest).add(h);
        }
        List<HeldOp> out = new ArrayList<>(held.size());
        int g = 0;
        int o = 0;
        while (g < gets.size() || o < rest.size()) {
            if (g < gets.size()) {
                out.add(gets.get(g++));
            }
            if (o < rest.size()) {
                out.add(rest.get(o++));
            }
        }
        return out;
    }
}
