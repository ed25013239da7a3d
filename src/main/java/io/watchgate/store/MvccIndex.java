package io.watchgate.store;

import io.watchgate.memory.MemoryBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Predicate;

/**
 * The committed state: per key its chain of versions, the ring of retained events and the published revision,
 * with the reads at any retained revision (as etcd's mvcc index with its range reads).
 *
 * <p>Readers take no lock. Only the committer, holding the store's commit lock, changes anything: it installs
 * a version before it publishes its revision (a volatile write), so a reader that starts at the published
 * revision sees a complete snapshot. A read that overlaps a compaction of its own revision notices, by checking
 * its revision again after reading, and reports it as compacted rather than give a short result.
 */
final class MvccIndex {

    /**
     * Each key's chain twice: in key order, for lists and scans, and by hash, for the lookups of one key that every
     * write makes (a skip list's lookup compares some twenty keys, each three strings, at a million objects). Both
     * change together under the commit lock. The hash map's growth (a table of twice the size, copied by the write
     * that crosses its threshold) lengthens that one write; the skip list never had such a step.
     */
    private record Chains(ConcurrentSkipListMap<ObjectKey, VersionChain> ordered,
            ConcurrentHashMap<ObjectKey, VersionChain> byKey) {

        Chains() {
            this(new ConcurrentSkipListMap<>(), new ConcurrentHashMap<>());
        }

        void put(ObjectKey key, VersionChain chain) {
            ordered.put(key, chain);
            byKey.put(key, chain);
        }
    }

    /** Replaced whole only by {@link #replace}, which builds the new maps aside: no reader sees them half filled. */
    private volatile Chains chains = new Chains();
    private final EventHistory history;
    private final ObjectCounts counts = new ObjectCounts();
    private volatile long revision;

    MvccIndex(int maxRevisions, MemoryBudget budget) {
        this.history = new EventHistory(maxRevisions, budget);
    }

    /** The newest published revision: everything up to it is installed. */
    long revision() {
        return revision;
    }

    long oldest() {
        return history.oldest();
    }

    ObjectCounts counts() {
        return counts;
    }

    /** The newest installed value of {@code key}, or null when absent or deleted. */
    StoredObject newest(ObjectKey key) {
        VersionChain chain = chains.byKey().get(key);
        return chain == null ? null : chain.valueAt(Long.MAX_VALUE);
    }

    /**
     * Installs {@code event}, whose revision must be above the published one (the next, in a store that numbers
     * its own commits), then publishes its revision. Commit lock held.
     */
    void apply(ChangeEvent event) {
        long next = event.revision();
        ObjectKey key = event.key();
        // compaction may have dropped this very key's chain (when it ended in a delete)
        VersionChain chain = chains.byKey().get(key);
        StoredObject value = event.type() == EventType.DELETED ? null : event.object();
        if (chain == null) {
            chains.put(key, new VersionChain(new Version(next, value, null)));
        } else {
            chain.push(next, value);
        }
        history.append(event);
        counts.change(event);
        revision = next;
    }

    /**
     * Publishes {@code at} with no event of its own: revisions up to it changed nothing here (a store fed by etcd
     * learns so from a progress notification). Commit lock held.
     */
    void advanceTo(long at) {
        if (at > revision) {
            revision = at;
        }
    }

    /** Recovery: fills an empty index with the objects live at {@code at}, with no history before it. */
    void restore(long at, Iterable<StoredObject> state) {
        if (revision != 0 || !chains.byKey().isEmpty()) {
            throw new IllegalStateException("only an empty store can be restored");
        }
        for (StoredObject object : state) {
            chains.put(object.key(), new VersionChain(new Version(object.revision(), object, null)));
            counts.restored(object);
        }
        history.startAt(at);
        revision = at;
    }

    /**
     * Replaces every object with those live at {@code at}, above the published revision, with no history before
     * it: a state read anew (an etcd-fed cache relisting). Every older revision reads as compacted from the start,
     * so that a reader that overlaps the replacement answers Compacted rather than a mix; a writer's look at the
     * newest state sees the old objects or the new, never none. Commit lock held.
     */
    void replace(long at, Iterable<StoredObject> state) {
        if (at <= revision) {
            throw new IllegalArgumentException("revision " + at + " does not follow " + revision);
        }
        Chains replacement = new Chains();
        for (StoredObject object : state) {
            replacement.put(object.key(), new VersionChain(new Version(object.revision(), object, null)));
        }
        history.dropThrough(at);
        history.startAt(at);
        chains = replacement;
        counts.clear();
        state.forEach(counts::restored);
        revision = at;
    }

    /** The retained events, oldest first. Commit lock held, so that they end at {@link #revision()}. */
    List<ChangeEvent> retainedEvents() {
        return history.after(history.oldest(), Integer.MAX_VALUE);
    }

    /** Every object live at {@code at}, in key order. */
    List<StoredObject> objectsAt(long at) {
        List<StoredObject> objects = new ArrayList<>();
        checkReadable(at);
        for (VersionChain chain : chains.ordered().values()) {
            StoredObject value = chain.valueAt(at);
            if (value != null) {
                objects.add(value);
            }
        }
        checkReadable(at);
        return objects;
    }

    /** For compaction only: the ring of retained events. */
    EventHistory history() {
        return history;
    }

    /** For compaction only: the chain of {@code key}, or null. */
    VersionChain chain(ObjectKey key) {
        return chains.byKey().get(key);
    }

    /** For compaction only: drops a chain nothing readable is left in. */
    void remove(ObjectKey key) {
        Chains current = chains;
        current.byKey().remove(key);
        current.ordered().remove(key);
    }

    StoredObject get(ObjectKey key, long rev) {
        checkReadable(rev);
        VersionChain chain = chains.byKey().get(key);
        StoredObject value = chain == null ? null : chain.valueAt(rev);
        checkReadable(rev);
        return value;
    }

    Page list(KeyRange range, long rev, ObjectKey startAfter, int limit, Predicate<StoredObject> filter,
            boolean countRemaining) {
        checkReadable(rev);
        ConcurrentNavigableMap<ObjectKey, VersionChain> keys = keysOf(range, startAfter);
        List<StoredObject> items = new ArrayList<>(Math.min(limit, 1024));
        int remaining = 0;
        for (Map.Entry<ObjectKey, VersionChain> entry : keys.entrySet()) {
            if (!range.contains(entry.getKey())) {
                continue;
            }
            StoredObject value = entry.getValue().valueAt(rev);
            if (value == null || !filter.test(value)) {
                continue;
            }
            if (items.size() < limit) {
                items.add(value);
            } else {
                remaining++;
                if (!countRemaining) {
                    break;
                }
            }
        }
        checkReadable(rev);
        return new Page(rev, List.copyOf(items), remaining);
    }

    Scan scan(KeyRange range, long rev, ObjectKey startAfter, int maxExamined, Predicate<StoredObject> filter) {
        checkReadable(rev);
        List<StoredObject> matches = new ArrayList<>();
        ObjectKey last = null;
        int examined = 0;
        for (Map.Entry<ObjectKey, VersionChain> entry : keysOf(range, startAfter).entrySet()) {
            if (examined == maxExamined) {
                checkReadable(rev);
                return new Scan(List.copyOf(matches), last);
            }
            examined++;
            last = entry.getKey();
            if (!range.contains(last)) {
                continue;
            }
            StoredObject value = entry.getValue().valueAt(rev);
            if (value != null && filter.test(value)) {
                matches.add(value);
            }
        }
        checkReadable(rev);
        return new Scan(List.copyOf(matches), null);
    }

    /** The keys of {@code range} after {@code startAfter}, which may lie anywhere (it comes from a client). */
    private ConcurrentNavigableMap<ObjectKey, VersionChain> keysOf(KeyRange range, ObjectKey startAfter) {
        ObjectKey lowest = range.lowest();
        ObjectKey highest = range.highest();
        ConcurrentSkipListMap<ObjectKey, VersionChain> ordered = chains.ordered();
        if (startAfter == null || startAfter.compareTo(lowest) < 0) {
            return ordered.subMap(lowest, true, highest, true);
        }
        if (startAfter.compareTo(highest) >= 0) {
            return new ConcurrentSkipListMap<>();
        }
        return ordered.subMap(startAfter, false, highest, true);
    }

    List<ChangeEvent> eventsAfter(long rev, int limit) {
        checkReadable(rev);
        return history.after(rev, limit);
    }

    private void checkReadable(long rev) {
        long current = revision;
        if (rev > current) {
            throw new StoreException.FutureRevision(rev, current);
        }
        long oldest = history.oldest();
        if (rev < oldest) {
            throw new StoreException.Compacted(rev, oldest);
        }
    }
}
