package io.watchgate.store;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test sets by hand: commit times, and so compaction by age, without waiting. */
final class SettableClock extends Clock {

    long now;

    @Override
    public long millis() {
        return now;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(now);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
