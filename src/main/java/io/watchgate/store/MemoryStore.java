package io.watchgate.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.jboss.logging.Logger;

/**
 * The embedded store: an MVCC map from key to version chain, a ring of recent events and one commit lock.
 *
 * <p>Writers serialize on the commit lock, which covers only the precondition check, stamping, one
 * serialization and the in-memory install. A commit installs its version before it publishes its revision
 * (a volatile write), so a reader that starts at the published revision sees a complete snapshot. Readers
 * take no lock; a read that overlaps a compaction of its own revision notices and reports it as compacted.
 */
public final class MemoryStore implements Store {

    private static final Logger LOG = Logger.getLogger(MemoryStore.class);

    private final ObjectMapper mapper;
    private final Clock clock;
    private final ConcurrentSkipListMap<ObjectKey, VersionChain> index = new ConcurrentSkipListMap<>();
    private final EventHistory history;
    private final ReentrantLock commitLock = new ReentrantLock();
    private final List<CommitListener> listeners = new CopyOnWriteArrayList<>();
    private final ConcurrentSkipListSet<Waiter> waiters = new ConcurrentSkipListSet<>();
    private final AtomicLong waiterIds = new AtomicLong();
    private final long maxHistoryBytes;
    private volatile long revision;

    /**
     * @param maxRevisions     at most this many revisions of history are kept
     * @param maxHistoryBytes  and at most about this many serialized bytes of events (the newest is always kept)
     */
    public MemoryStore(ObjectMapper mapper, int maxRevisions, long maxHistoryBytes, Clock clock) {
        if (maxRevisions < 1 || maxHistoryBytes < 1) {
            throw new IllegalArgumentException("history bounds must be positive");
        }
        this.mapper = mapper;
        this.clock = clock;
        this.history = new EventHistory(maxRevisions);
        this.maxHistoryBytes = maxHistoryBytes;
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
            mutation.guards().forEach(this::checkGuard);
            if (history.isFull() || history.retainedBytes() > maxHistoryBytes) {
                while (history.isFull()
                        || (history.retainedBytes() > maxHistoryBytes && history.oldest() < revision)) {
                    compactLocked(history.oldest() + 1);
                }
                // compaction may have dropped this very key's chain (when it ended in a delete)
                chain = index.get(key);
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
                try {
                    listener.committed(event);
                } catch (RuntimeException e) {
                    // the write is committed and must be acknowledged; a listener's failure is its own
                    LOG.errorf(e, "commit listener failed on revision %d", next);
                }
            }
            releaseWaiters(next);
            return event;
        } finally {
            commitLock.unlock();
        }
    }

    private void checkGuard(Mutation.Guard guard) {
        VersionChain chain = index.get(guard.key());
        StoredObject value = chain == null ? null : chain.valueAt(Long.MAX_VALUE);
        if (value == null || value.revision() != guard.revision()) {
            throw new StoreException.GuardChanged(guard.key());
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
            Predicate<StoredObject> filter, boolean countRemaining) {
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

    @Override
    public Scan scan(KeyRange range, long rev, ObjectKey startAfter, int maxExamined,
            Predicate<StoredObject> filter) {
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
        return eventsAfter(rev, Integer.MAX_VALUE);
    }

    @Override
    public List<ChangeEvent> eventsAfter(long rev, int limit) {
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

    /** One reader waiting for a revision; each has its own future, which it may cancel when it gives up. */
    private record Waiter(long revision, long id, CompletableFuture<Long> future) implements Comparable<Waiter> {
        @Override
        public int compareTo(Waiter other) {
            int byRevision = Long.compare(revision, other.revision);
            return byRevision != 0 ? byRevision : Long.compare(id, other.id);
        }
    }

    /** Completes once the store reaches {@code rev}; cancelling the returned future stops the wait. */
    @Override
    public CompletableFuture<Long> awaitRevision(long rev) {
        if (revision >= rev) {
            return CompletableFuture.completedFuture(revision);
        }
        Waiter waiter = new Waiter(rev, waiterIds.incrementAndGet(), new CompletableFuture<>());
        waiters.add(waiter);
        waiter.future().whenComplete((reached, failure) -> waiters.remove(waiter));
        if (revision >= rev) {
            // the commit that reached rev may have looked for waiters just before this one registered
            releaseWaiters(revision);
        }
        return waiter.future();
    }

    private void releaseWaiters(long reached) {
        if (waiters.isEmpty()) {
            return;
        }
        for (Waiter waiter : waiters.headSet(new Waiter(reached, Long.MAX_VALUE, null), true)) {
            waiter.future().complete(reached);
        }
    }

    int waiting() {
        return waiters.size();
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
        long from = history.oldest();
        // Publish the new oldest revision before cutting any chain: a reader that sees a cut chain then also
        // sees that its revision is gone, and answers Compacted instead of a short result.
        history.dropThrough(target);
        for (long r = from + 1; r <= target; r++) {
            ObjectKey key = history.at(r).key();
            VersionChain chain = index.get(key);
            if (chain != null && chain.compact(target)) {
                index.remove(key);
            }
        }
        history.release(from, target);
    }
}
