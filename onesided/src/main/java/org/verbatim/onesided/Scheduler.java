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
        List<HeldOp> out = new ArrayList<>(held.size());
        order(held, reorder, out, new ArrayList<>(), new ArrayList<>());
        return out;
    }

    /**
     * Appends {@code held} to {@code out} in issue order; {@code gets} and {@code rest} are
     * scratch lists (left empty), so that a caller that keeps all three allocates nothing.
     */
    static void order(List<HeldOp> held, boolean reorder, List<HeldOp> out, List<HeldOp> gets,
                      List<HeldOp> rest) {
        if (!reorder || held.size() < 2) {
            out.addAll(held);
            return;
        }
        for (int i = 0; i < held.size(); i++) {
            HeldOp h = held.get(i);
            (h.kind() == HeldOp.Kind.GET ? gets : rest).add(h);
        }
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
        gets.clear();
        rest.clear();
    }
}
