package io.watchgate.fairness;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Metric labels for users, a bounded set: the first {@code limit} users asked about keep their names, every other is
 * {@value #OTHER}. A metric labelled by user then has at most {@code limit + 1} series.
 */
final class UserLabels {

    static final String OTHER = "other";

    private final Set<String> named = ConcurrentHashMap.newKeySet();
    private final int limit;

    UserLabels(int limit) {
        this.limit = limit;
    }

    String of(String user) {
        if (named.contains(user)) {
            return user;
        }
        synchronized (this) {
            if (named.size() < limit && !user.equals(OTHER)) {
                named.add(user);
                return user;
            }
        }
        return OTHER;
    }
}
