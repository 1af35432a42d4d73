package org.verbatim.transport.iwarp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FirstMessagesTest {
    private final List<Integer> posted = new ArrayList<>();
    private boolean queueFull;

    private FirstMessages firsts(int rank, int size) {
        return new FirstMessages(p -> {
            if (queueFull) {
                return false;
            }
            posted.add(p);
            return true;
        }, rank, size, new ConnectionHistory(size));
    }

    @Test
    void postsAtOnceWhenTheQueueTakesIt() {
        FirstMessages f = firsts(2, 4);
        f.owe(0);
        f.owe(3);
        assertEquals(List.of(0, 3), posted);
        assertEquals(0, f.retry(), "nothing owed");
    }

    @Test
    void aRefusedPostIsMadeAgainAtTheNextRetryOnce() {
        FirstMessages f = firsts(2, 4);
        queueFull = true;
        f.owe(1);
        f.owe(1); // owed once, not twice
        assertEquals(List.of(), posted);
        assertEquals(0, f.retry(), "the queue is still full");
        queueFull = false;
        assertEquals(1, f.retry());
        assertEquals(List.of(1), posted);
        assertEquals(0, f.retry());
        assertEquals(List.of(1), posted);
    }

    @Test
    void countsAnswersFromLowerRanksOnly() {
        FirstMessages f = firsts(2, 4);
        f.received(3); // a client's first message: not an answer
        assertEquals(0, f.answers());
        f.received(0);
        f.received(0);
        f.received(1);
        assertEquals(2, f.answers());
        assertTrue(f.answered(0));
        f.reset(0);
        assertFalse(f.answered(0));
        assertEquals(1, f.answers());
    }

    @Test
    void resetForgetsWhatIsOwed() {
        FirstMessages f = firsts(1, 3);
        queueFull = true;
        f.owe(0);
        f.reset(0);
        queueFull = false;
        assertEquals(0, f.retry());
        assertEquals(List.of(), posted);
    }
}
