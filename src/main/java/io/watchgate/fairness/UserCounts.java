package io.watchgate.fairness;

import java.util.concurrent.ConcurrentHashMap;

/**
 * How many of something (requests in flight, open watches) each user holds. A user's entry goes when its count is
 * back to 0, so the map holds only users with something open: bounded by the server's own limits on those.
 */
final class UserCounts {

    private final ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();

    /** Takes one for {@code user} if it holds fewer than {@code limit}; whether it did. */
    boolean tryTake(String user, int limit) {
        return tryTake(user, limit, 1);
    }

    /** Takes {@code count} for {@code user} if it then holds no more than {@code limit}; whether it did. */
    boolean tryTake(String user, int limit, int count) {
        boolean[] taken = {false};
        counts.compute(user, (name, held) -> {
            int now = held == null ? 0 : held;
            if (now + count > limit) {
                return held;
            }
            taken[0] = true;
            return now + count;
        });
        return taken[0];
    }

    void giveBack(String user) {
        giveBack(user, 1);
    }

    void giveBack(String user, int count) {
        counts.computeIfPresent(user, (name, held) -> held <= count ? null : held - count);
    }

    int held(String user) {
        return counts.getOrDefault(user, 0);
    }

    int users() {
        return counts.size();
    }
}
