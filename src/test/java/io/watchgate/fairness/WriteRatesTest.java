package io.watchgate.fairness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A token bucket per user, on a clock the test sets. */
class WriteRatesTest {

    private static final long SECOND = 1_000_000_000L;
    /** A millisecond past a token's time: the arithmetic is in doubles. */
    private static final long JUST = 1_000_000L;

    @Test
    void aBurstThenOneWritePerTokenAndTheWaitUntilTheNext() {
        WriteRates rates = new WriteRates(2, 3, 100); // 2 a second, 3 saved
        assertEquals(0, rates.tryWrite("alice", 0));
        assertEquals(0, rates.tryWrite("alice", 0));
        assertEquals(0, rates.tryWrite("alice", 0));
        assertEquals(1, rates.tryWrite("alice", 0), "half a second to the next token: Retry-After rounds up to 1");
        assertEquals(0, rates.tryWrite("bob", 0), "bob has a bucket of his own");
        assertEquals(0, rates.tryWrite("alice", SECOND / 2 + JUST));
        assertEquals(1, rates.tryWrite("alice", SECOND / 2 + JUST));
    }

    @Test
    void aSlowRateNamesTheWholeWait() {
        WriteRates rates = new WriteRates(0.2, 1, 100); // one write every 5 s
        assertEquals(0, rates.tryWrite("alice", 0));
        assertEquals(5, rates.tryWrite("alice", 0));
        assertEquals(3, rates.tryWrite("alice", 2 * SECOND));
        assertEquals(0, rates.tryWrite("alice", 5 * SECOND + JUST));
    }

    @Test
    void fullBucketsAreSweptAndTheMapIsBounded() {
        WriteRates rates = new WriteRates(1, 2, 2);
        rates.tryWrite("alice", 0);
        rates.tryWrite("bob", 0);
        assertEquals(0, rates.tryWrite("carol", 0), "past 2 users with a bucket, a new user is not metered");
        assertEquals(2, rates.users());
        rates.sweep(SECOND / 2);
        assertEquals(2, rates.users(), "not full again yet");
        rates.sweep(2 * SECOND);
        assertEquals(0, rates.users(), "full again: no different from no bucket");
    }
}
