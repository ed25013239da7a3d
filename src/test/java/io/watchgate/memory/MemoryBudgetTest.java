package io.watchgate.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One account for every user of memory, and the order in which it gives up memory past its limit. */
class MemoryBudgetTest {

    private final MemoryBudget budget = new MemoryBudget(1000, 1);

    @Test
    void countsEachUseAndTheirSum() {
        budget.charge(MemoryBudget.Use.HISTORY, 300);
        budget.charge(MemoryBudget.Use.FRAMES, 200);
        budget.charge(MemoryBudget.Use.WATCHERS, 100);
        budget.release(MemoryBudget.Use.FRAMES, 50);

        assertEquals(300, budget.used(MemoryBudget.Use.HISTORY));
        assertEquals(150, budget.used(MemoryBudget.Use.FRAMES));
        assertEquals(100, budget.used(MemoryBudget.Use.WATCHERS));
        assertEquals(0, budget.used(MemoryBudget.Use.WRITES));
        assertEquals(550, budget.used());
        assertFalse(budget.isOver());
    }

    @Test
    void pastTheLimitFramesAreShedBeforeWatchers() {
        List<String> asked = new ArrayList<>();
        // registered in the other order: the order is the budget's, not the registration's
        budget.shedder(MemoryBudget.Shed.WATCHERS, b -> asked.add("watchers"));
        budget.shedder(MemoryBudget.Shed.FRAMES, b -> {
            asked.add("frames");
            b.release(MemoryBudget.Use.FRAMES, 100);
        });
        budget.charge(MemoryBudget.Use.FRAMES, 500);
        budget.charge(MemoryBudget.Use.HISTORY, 550);

        assertEquals(List.of("frames"), asked, "dropping frames was enough");
        assertEquals(950, budget.used());
    }

    @Test
    void watchersAreAskedWhenFramesWereNotEnough() {
        List<String> asked = new ArrayList<>();
        budget.shedder(MemoryBudget.Shed.FRAMES, b -> asked.add("frames"));
        budget.shedder(MemoryBudget.Shed.WATCHERS, b -> asked.add("watchers"));
        budget.charge(MemoryBudget.Use.HISTORY, 1001);

        assertEquals(List.of("frames", "watchers"), asked);
    }

    @Test
    void writesAreRefusedWhileOverAndAdmittedOnceBackUnder() {
        assertTrue(budget.admitsWrite());
        budget.charge(MemoryBudget.Use.WATCHERS, 1200);

        assertFalse(budget.admitsWrite());
        assertFalse(budget.admitsWrite());
        assertEquals(2, budget.shed(MemoryBudget.Shed.WRITES));

        budget.release(MemoryBudget.Use.WATCHERS, 300);
        assertTrue(budget.admitsWrite());
        assertEquals(2, budget.shed(MemoryBudget.Shed.WRITES));
    }

    @Test
    void aWriteGoesAheadWhenSheddingBringsTheBudgetBackUnderAtOnce() {
        budget.charge(MemoryBudget.Use.HISTORY, 900);
        budget.charge(MemoryBudget.Use.FRAMES, 300); // no shedder yet: stays over
        budget.shedder(MemoryBudget.Shed.FRAMES, b -> b.release(MemoryBudget.Use.FRAMES, 300));

        assertTrue(budget.admitsWrite());
        assertEquals(0, budget.shed(MemoryBudget.Shed.WRITES));
    }
}
