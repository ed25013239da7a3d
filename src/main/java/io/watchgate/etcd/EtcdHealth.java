package io.watchgate.etcd;

import java.time.Clock;
import java.util.Optional;

/**
 * Whether etcd answers: what readiness and the write path's refusals say. Any answer from etcd (a watch response,
 * a probe's, a transaction's outcome) counts as reaching it; a failed probe, transaction (but one that only timed
 * out), read of etcd's revision or relist as not. A broken watch does not: one member restarting breaks it.
 */
public final class EtcdHealth {

    private final Clock clock;
    /** When etcd last failed to answer with no answer since, or 0 while it answers. */
    private volatile long unreachableSinceMillis;
    private volatile String lastFailure = "";

    EtcdHealth(Clock clock) {
        this.clock = clock;
    }

    void reached() {
        if (unreachableSinceMillis != 0) {
            unreachableSinceMillis = 0;
        }
    }

    void unreachable(Throwable failure) {
        lastFailure = String.valueOf(failure);
        if (unreachableSinceMillis == 0) {
            unreachableSinceMillis = clock.millis();
        }
    }

    /** How long etcd has failed to answer, if it does not answer now. */
    public Optional<java.time.Duration> unreachableFor() {
        long since = unreachableSinceMillis;
        return since == 0 ? Optional.empty() : Optional.of(java.time.Duration.ofMillis(clock.millis() - since));
    }

    public String lastFailure() {
        return lastFailure;
    }
}
