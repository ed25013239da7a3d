package io.watchgate.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Per-user counts of what is open, and labels for metrics from a bounded set. */
class UserCountsTest {

    @Test
    void aUserHoldsUpToItsLimitAndItsEntryGoesWhenItHoldsNothing() {
        UserCounts counts = new UserCounts();
        assertTrue(counts.tryTake("alice", 2));
        assertTrue(counts.tryTake("alice", 2));
        assertFalse(counts.tryTake("alice", 2));
        assertTrue(counts.tryTake("bob", 2));
        counts.giveBack("alice");
        assertTrue(counts.tryTake("alice", 2));
        counts.giveBack("alice");
        counts.giveBack("alice");
        counts.giveBack("bob");
        assertEquals(0, counts.users(), "nothing held, nothing kept");
    }

    @Test
    void theFirstUsersKeepTheirNamesTheOthersShareOne() {
        UserLabels labels = new UserLabels(2);
        assertEquals("alice", labels.of("alice"));
        assertEquals("bob", labels.of("bob"));
        assertEquals(UserLabels.OTHER, labels.of("carol"));
        assertEquals("alice", labels.of("alice"));
        assertEquals(UserLabels.OTHER, new UserLabels(5).of("other"), "no user takes the shared label's name");
    }
}
