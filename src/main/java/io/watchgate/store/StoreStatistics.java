package io.watchgate.store;

/** What a store counts anyway, for metrics and health: read at any time, costing the store nothing. */
public interface StoreStatistics {

    /** How many objects of each resource the newest revision holds. */
    ObjectCounts objectCounts();

    /** Writes that became durable so far (0 where writes count at once). */
    long durableWrites();

    /** The time those writes waited, from submit until durable, in nanoseconds. */
    long durableWaitNanos();
}
