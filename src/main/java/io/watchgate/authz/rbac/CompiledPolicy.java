package io.watchgate.authz.rbac;

import io.watchgate.authn.UserInfo;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A policy snapshot with the rules of the users who asked under it, each compiled once. A policy change makes a new
 * one (an empty cache), so no entry outlives the policy it was compiled from. Event loops share it without a lock:
 * a lookup is one concurrent-map read; at most {@code capacity} users are kept, all dropped when it is full (a
 * user's rules are quick to compile again; a bound keeps many identities from holding memory).
 */
final class CompiledPolicy {

    /** Only what RBAC reads of a user: the uid and extra attributes make no difference. */
    private record UserKey(String name, List<String> groups) {
    }

    private final PolicySnapshot snapshot;
    private final int capacity;
    private final Map<UserKey, UserRules> users = new ConcurrentHashMap<>();

    CompiledPolicy(PolicySnapshot snapshot, int capacity) {
        this.snapshot = snapshot;
        this.capacity = capacity;
    }

    PolicySnapshot snapshot() {
        return snapshot;
    }

    UserRules rulesOf(UserInfo user) {
        UserKey key = new UserKey(user.name(), user.groups());
        UserRules rules = users.get(key);
        if (rules == null) {
            rules = new UserRules(snapshot, user);
            if (users.size() >= capacity) {
                // concurrent misses may each add one past the bound before the next one clears: a few, never more
                users.clear();
            }
            UserRules raced = users.putIfAbsent(key, rules);
            if (raced != null) {
                rules = raced;
            }
        }
        return rules;
    }

    int usersHeld() {
        return users.size();
    }
}
