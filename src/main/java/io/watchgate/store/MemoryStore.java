package io.watchgate.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The embedded store: an MVCC map from key to version chain, a ring of recent events and one commit lock.
 *
 * <p>Writers serialize on the commit lock, which covers only the precondition check, stamping, one
 * serialization and the in-memory install. A commit installs its version before it publishes its revision
 * (a volatile write), so a reader that starts at the published revision sees a complete snapshot. Readers
 * take no lock; a read that overlaps a compaction of its own revision notices and reports it as compacted.
 */
public final class MemoryStore implements Store {

    private final ObjectMapper mapper;
    private final Clock clock;
    private final ConcurrentSkipListMap<ObjectKey, VersionChain> index = new ConcurrentSkipListMap<>();
    private final EventHistory history;
    private final ReentrantLock commitLock = new ReentrantLock();
    private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();
    private final ConcurrentSkipListMap<Long, CompletableFuture<Long>> waiters = new ConcurrentSkipListMap<>();
    private volatile long revision;

    public MemoryStore(ObjectMapper mapper, int maxRevisions, Clock clock) {
        if (maxRevisions < 1) {
            throw new IllegalArgumentException("maxRevisions must be positive");
        }
        this.mapper = mapper;
        this.clock = clock;
        this.history = new EventHistory(maxRevisions);
    }

    @Override
    public long currentRevision() {
        return revision;
    }

    @Override
    public long oldestRevision() {
        return history.oldest();
    }

    @Override
    public ChangeEvent commit(Mutation mutation) {
        ObjectKey key = mutation.key();
        commitLock.lock();
        try {
            VersionChain chain = index.get(key);
            StoredObject current = chain == null ? null : chain.valueAt(Long.MAX_VALUE);
            checkPrecondition(mutation, current);
            if (history.isFull()) {
                compactLocked(history.oldest() + 1);
            }
            long next = revision + 1;
            boolean delete = mutation.op() == Mutation.Op.DELETE;
            ObjectNode tree = delete ? current.tree().deepCopy() : mutation.object();
            StoredObject stored = stamp(key, tree, next);
            if (chain == null) {
                index.put(key, new VersionChain(new Version(next, stored, null)));
            } else {
                chain.push(next, delete ? null : stored);
            }
            EventType type = delete ? EventType.DELETED : current == null ? EventType.ADDED : EventType.MODIFIED;
            ChangeEvent event = new ChangeEvent(next, type, stored, current, clock.millis());
            history.append(event);
            revision = next;
            for (CommitListener listener : listeners) {
                listener.committed(event);
            }
            releaseWaiters(next);
            return event;
        } finally {
            commitLock.unlock();
        }
    }

    private static void checkPrecondition(Mutation mutation, StoredObject current) {
        switch (mutation.op()) {
            case CREATE -> {
                if (current != null) {
                    throw new StoreException.KeyExists(mutation.key());
                }
            }
            case UPDATE, DELETE -> {
                if (current == null) {
                    throw new StoreException.KeyNotFound(mutation.key());
                }
                if (mutation.expectedRevision() != 0 && mutation.expectedRevision() != current.revision()) {
                    throw new StoreException.RevisionConflict(current);
                }
            }
        }
    }

    private StoredObject stamp(ObjectKey key, ObjectNode tree, long rev) {
        tree.withObject("/metadata").put("resourceVersion", Long.toString(rev));
        try {
            return new StoredObject(key, tree, mapper.writeValueAsBytes(tree), rev);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
    }

    @Override
    public StoredObject get(ObjectKey key, long rev) {
        checkReadable(rev);
        VersionChain chain = index.get(key);
        StoredObject value = chain == null ? null : chain.valueAt(rev);
        checkReadable(rev);
        return value;
    }

    @Override
    public Page list(KeyRange range, long rev, ObjectKey startAfter, int limit,
            Predicate<StoredObject> filter) {
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
            }
        }
        checkReadable(rev);
        return new Page(rev, List.copyOf(items), remaining);
    }

    /** The keys of {@code range} after {@code startAfter}, which may lie anywhere (it comes from a client). */
    private ConcurrentNavigableMap<ObjectKey, VersionChain> keysOf(KeyRange range, ObjectKey startAfter) {
        ObjectKey lowest = range.lowest();
        ObjectKey highest = range.highest();
        if (startAfter == null || startAfter.compareTo(lowest) < 0) {
            return index.subMap(lowest, true, highest, true);
        }
        if (startAfter.compareTo(highest) >= 0) {
            return new ConcurrentSkipListMap<>();
        }
        return index.subMap(startAfter, false, highest, true);
    }

    @Override
    public List<ChangeEvent> eventsAfter(long rev) {
        checkReadable(rev);
        return history.after(rev);
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

    @Override
    public CompletionStage<Long> awaitRevision(long rev) {
        if (revision >= rev) {
            return CompletableFuture.completedFuture(revision);
        }
        CompletableFuture<Long> waiter = waiters.computeIfAbsent(rev, r -> new CompletableFuture<>());
        if (revision >= rev) {
            // the commit that reached rev may have looked for waiters just before this one registered
            releaseWaiters(revision);
        }
        return waiter;
    }

    private void releaseWaiters(long reached) {
        if (waiters.isEmpty()) {
            return;
        }
        Map<Long, CompletableFuture<Long>> due = waiters.headMap(reached, true);
        for (var it = due.entrySet().iterator(); it.hasNext();) {
            var entry = it.next();
            it.remove();
            entry.getValue().complete(reached);
        }
    }

    @Override
    public void addCommitListener(CommitListener listener) {
        listeners.add(listener);
    }

    /**
     * Makes {@code target} the oldest readable revision (clamped to the current one), in batches of at most
     * {@code batch} revisions so that writers never wait long on the commit lock.
     */
    public void compactTo(long target, int batch) {
        while (true) {
            commitLock.lock();
            try {
                long goal = Math.min(Math.min(target, revision), history.oldest() + batch);
                if (goal <= history.oldest()) {
                    return;
                }
                compactLocked(goal);
            } finally {
                commitLock.unlock();
            }
        }
    }

    /** The newest revision committed at or before {@code cutoffMillis}, or the oldest one if none was. */
    public long newestRevisionCommittedBy(long cutoffMillis) {
        long candidate = history.oldest();
        for (long r = candidate + 1; r <= revision; r++) {
            ChangeEvent event = history.at(r);
            if (event == null) {
                candidate = history.oldest();
                continue;
            }
            if (event.committedAtMillis() > cutoffMillis) {
                break;
            }
            candidate = r;
        }
        return candidate;
    }

    private void compactLocked(long target) {
        for (long r = history.oldest() + 1; r <= target; r++) {
            ObjectKey key = history.at(r).key();
            VersionChain chain = index.get(key);
            if (chain != null && chain.compact(target)) {
                index.remove(key);
            }
        }
        history.dropThrough(target);
    }
}
