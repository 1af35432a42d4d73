package org.verbatim.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.verbatim.runtime.op.ElementKind;
import org.verbatim.runtime.op.OpCode;

class SchedulerTest {
    private static HeldOp op(HeldOp.Kind kind, long offset) {
        return new HeldOp(kind, null, null, null, 0, offset, 4, ElementKind.INT32, OpCode.SUM,
                null, null);
    }

    @Test
    void getsGoFirstAndInterleaveTheRestKeepsItsOrder() {
        HeldOp p1 = op(HeldOp.Kind.PUT, 1), a2 = op(HeldOp.Kind.ACC, 2), g3 = op(HeldOp.Kind.GET, 3),
                a4 = op(HeldOp.Kind.ACC, 4), g5 = op(HeldOp.Kind.GET, 5), p6 = op(HeldOp.Kind.PUT, 6);
        List<HeldOp> out = Scheduler.order(List.of(p1, a2, g3, a4, g5, p6), true);
        assertEquals(List.of(g3, p1, g5, a2, a4, p6), out);
    }

    @Test
    void offKeepsTheCallOrder() {
        HeldOp p1 = op(HeldOp.Kind.PUT, 1), g2 = op(HeldOp.Kind.GET, 2);
        assertEquals(List.of(p1, g2), Scheduler.order(List.of(p1, g2), false));
    }
}
