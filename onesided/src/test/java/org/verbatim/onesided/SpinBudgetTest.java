package org.verbatim.onesided;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SpinBudgetTest {
    @Test
    void spinsLongOnlyWhenEveryMemberHasACore() {
        assertEquals(SpinBudget.DEDICATED, SpinBudget.forMembers(2, 2));
        assertEquals(SpinBudget.DEDICATED, SpinBudget.forMembers(1, 1));
        assertEquals(SpinBudget.SHARED_CORES, SpinBudget.forMembers(3, 2));
        assertEquals(SpinBudget.SHARED_CORES, SpinBudget.forMembers(64, 2));
    }
}
