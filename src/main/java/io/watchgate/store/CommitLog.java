package io.watchgate.store;

/**
 * Where a committed mutation must be before it counts: the write-ahead log in durable mode. The store hands
 * each event over in revision order, holding its commit lock; the log makes batches of them durable on its own
 * thread and reports back through {@link Sink}, in order, so that writers waiting together share one sync.
 */
public interface CommitLog {

    /**
     * Queues {@code event} to be made durable.
     *
     * @throws StoreException.Unavailable when the log cannot take writes (nothing is queued then)
     */
    void append(ChangeEvent event);

    /** Drops the events queued and not yet written: the store is failing them (see {@link Sink#failed}). */
    void discardQueued();

    /** What the store does with the log's verdicts. */
    interface Sink {

        /** These events, the oldest queued ones, in order, are durable: apply them and acknowledge them. */
        void durable(java.util.List<ChangeEvent> batch);

        /**
         * Writing failed: every event queued and not yet reported durable is lost and must not be acknowledged.
         * The log has removed what it wrote of them.
         */
        void failed(Exception cause);
    }
}
