package io.watchgate.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
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
 *
 * <p>With a {@link CommitLog} (durable mode) a commit is prepared under the lock and handed to the log instead
 * of installed; the log installs batches once they are on disk, in revision order, and only then completes their
 * writers' futures. Until then the write is invisible to readers and watchers, but the next writer's precondition sees it.
 */
public final class MemoryStore implements Store {

    private static final Logger LOG = Logger.getLogger(MemoryStore.class);
    /**
     * Durable mode: writes waiting for the log's sync, at most. A submitted write holds no thread while it waits, so
     * this bound and the next are what limit the memory a stalled disk can tie up; past either, writes answer 503
     * until it catches up.
     */
    public static final int MAX_IN_FLIGHT = 10_000;
    /** And at most this many bytes of them (as serialized): objects may be up to some MiB each. */
    public static final long MAX_IN_FLIGHT_BYTES = 64L << 20;

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
    /** Durable mode only (else null), and then the state below is the commit lock's. */
    private volatile CommitLog log;
    /** The last revision handed to a commit; ahead of {@link #revision} while the log has writes in flight. */
    private long assigned;
    /** Per key, the newest write on its way to the log: what the next writer's preconditions see. */
    private final Map<ObjectKey, ChangeEvent> unapplied = new HashMap<>();
    private final LongAdder durableWrites = new LongAdder();
    private final LongAdder durableWaitNanos = new LongAdder();
    /** Durable mode: the serialized bytes of the writes in {@link #inFlight}. */
    private long inFlightBytes;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private final ObjectCounts counts = new ObjectCounts();

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

    /** Durable mode: writes that became durable so far. */
    public long durableWrites() {
        return durableWrites.sum();
    }

    /** Durable mode: the time those writes waited, from submit until durable, in nanoseconds. */
    public long durableWaitNanos() {
        return durableWaitNanos.sum();
    }

    /** How many objects of each resource the newest revision holds. */
    public ObjectCounts objectCounts() {
        return counts;
    }

    @Override
    public long oldestRevision() {
        return history.oldest();
    }

    @Override
    public CompletableFuture<ChangeEvent> submit(Mutation mutation) {
        CommitLog log = this.log;
        if (log == null) {
            commitLock.lock();
            try {
                ChangeEvent event = prepare(mutation, revision + 1);
                install(event);
                return CompletableFuture.completedFuture(event);
            } finally {
                commitLock.unlock();
            }
        }
        commitLock.lock();
        try {
            if (inFlight.size() >= MAX_IN_FLIGHT || inFlightBytes >= MAX_IN_FLIGHT_BYTES) {
                throw new StoreException.Unavailable("too many writes are waiting for the disk (" + inFlight.size()
                        + ", " + inFlightBytes + " bytes)");
            }
            ChangeEvent event = prepare(mutation, assigned + 1);
            // shared with the other writers of the same batch: one sync for all of them
            InFlight commit = new InFlight(event, new CompletableFuture<>(), System.nanoTime());
            log.append(event);
            assigned = event.revision();
            unapplied.put(mutation.key(), event);
            inFlight.add(commit);
            inFlightBytes += serializedBytes(event);
            return commit.durable();
        } finally {
            commitLock.unlock();
        }
    }

    /** Checks the mutation against the newest state (applied or on its way to the log) and builds its event. */
    private ChangeEvent prepare(Mutation mutation, long next) {
        ObjectKey key = mutation.key();
        StoredObject current = newest(key);
        checkPrecondition(mutation, current);
        mutation.guards().forEach(this::checkGuard);
        boolean delete = mutation.op() == Mutation.Op.DELETE;
        ObjectNode tree = delete ? current.tree().deepCopy() : mutation.object();
        StoredObject stored = stamp(key, tree, next);
        EventType type = delete ? EventType.DELETED : current == null ? EventType.ADDED : EventType.MODIFIED;
        return new ChangeEvent(next, type, stored, current, clock.millis());
    }

    @Override
    public StoredObject latest(ObjectKey key) {
        if (log == null) {
            return newest(key); // nothing is ever on its way: no lock needed
        }
        commitLock.lock();
        try {
            return newest(key);
        } finally {
            commitLock.unlock();
        }
    }

    @Override
    public CompletableFuture<StoredObject> counted(StoredObject object) {
        if (log != null) {
            commitLock.lock();
            try {
                for (InFlight commit : inFlight) {
                    if (commit.event().object() == object) {
                        return commit.durable().thenApply(event -> object);
                    }
                }
                if (object.revision() > revision) {
                    return CompletableFuture.failedFuture(new StoreException.Unavailable(
                            "the write of revision " + object.revision() + " could not be made durable"));
                }
            } finally {
                commitLock.unlock();
            }
        }
        return CompletableFuture.completedFuture(object);
    }

    private static long serializedBytes(ChangeEvent event) {
        byte[] json = event.object().json();
        return json == null ? 0 : json.length;
    }

    /** The newest value of {@code key}: a write the log has not confirmed yet counts for the next writer. */
    private StoredObject newest(ObjectKey key) {
        ChangeEvent pending = unapplied.get(key);
        if (pending != null) {
            return pending.type() == EventType.DELETED ? null : pending.object();
        }
        VersionChain chain = index.get(key);
        return chain == null ? null : chain.valueAt(Long.MAX_VALUE);
    }

    /** Makes a committed (and, in durable mode, durable) event visible: version, history, listeners, waiters. */
    private void install(ChangeEvent event) {
        long next = event.revision();
        ObjectKey key = event.key();
        if (history.isFull() || history.retainedBytes() > maxHistoryBytes) {
            while (history.isFull()
                    || (history.retainedBytes() > maxHistoryBytes && history.oldest() < revision)) {
                compactLocked(history.oldest() + 1);
            }
        }
        // compaction may have dropped this very key's chain (when it ended in a delete)
        VersionChain chain = index.get(key);
        StoredObject value = event.type() == EventType.DELETED ? null : event.object();
        if (chain == null) {
            index.put(key, new VersionChain(new Version(next, value, null)));
        } else {
            chain.push(next, value);
        }
        history.append(event);
        counts.change(event);
        revision = next;
        for (CommitListener listener : listeners) {
            try {
                listener.committed(event);
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable e) {
                // the write is committed and must be acknowledged; a listener's failure is its own
                LOG.errorf(e, "commit listener failed on revision %d", next);
            }
        }
        releaseWaiters(next);
    }

    /**
     * Durable mode: from now on a commit counts once {@code log} has it, and the log reports to the store.
     * Called once, after recovery and before the first commit.
     */
    public CommitLog.Sink useLog(CommitLog log) {
        commitLock.lock();
        try {
            this.log = log;
            this.assigned = revision;
            return logSink;
        } finally {
            commitLock.unlock();
        }
    }

    private final CommitLog.Sink logSink = new CommitLog.Sink() {
        @Override
        public void durable(List<ChangeEvent> batch) {
            List<InFlight> done = new ArrayList<>(batch.size());
            commitLock.lock();
            try {
                for (ChangeEvent event : batch) {
                    InFlight commit = inFlight.peek();
                    if (commit == null || commit.event() != event) {
                        throw new IllegalStateException("the log reported revision " + event.revision()
                                + " out of order");
                    }
                    install(event);
                    inFlight.poll();
                    durableWrites.increment();
                    durableWaitNanos.add(System.nanoTime() - commit.submittedNanos());
                    unapplied.remove(event.key(), event);
                    inFlightBytes -= serializedBytes(event);
                    done.add(commit);
                }
            } finally {
                commitLock.unlock();
                // what was installed is durable and visible: acknowledged, even if a later one failed
                done.forEach(commit -> commit.durable().complete(commit.event()));
            }
        }

        @Override
        public void failed(Exception cause) {
            List<InFlight> lost;
            commitLock.lock();
            try {
                log.discardQueued();
                lost = new ArrayList<>(inFlight);
                inFlight.clear();
                unapplied.clear();
                inFlightBytes = 0;
                assigned = revision;
            } finally {
                commitLock.unlock();
            }
            StoreException.Unavailable unavailable = new StoreException.Unavailable(
                    "the write could not be made durable: " + cause.getMessage());
            lost.forEach(commit -> commit.durable().completeExceptionally(unavailable));
        }
    };

    /** A write handed to the log, and the promise its writer waits on. */
    private record InFlight(ChangeEvent event, CompletableFuture<ChangeEvent> durable, long submittedNanos) {
    }

    /**
     * Recovery: starts an empty, unused store at the state of {@code revision}: the objects live then, with no
     * history before it.
     */
    public void restore(long revision, Iterable<StoredObject> state) {
        commitLock.lock();
        try {
            if (this.revision != 0 || !index.isEmpty()) {
                throw new IllegalStateException("only an empty store can be restored");
            }
            for (StoredObject object : state) {
                index.put(object.key(), new VersionChain(new Version(object.revision(), object, null)));
                counts.restored(object);
            }
            history.startAt(revision);
            this.revision = revision;
            this.assigned = revision;
        } finally {
            commitLock.unlock();
        }
    }

    /**
     * Recovery: applies one recorded event, which must be the next revision, as its commit did (history,
     * compaction, listeners) and without checking it again.
     *
     * @param object the stored state after the event; for DELETED, the last state stamped with its revision
     */
    public void replay(long revision, EventType type, StoredObject object, long committedAtMillis) {
        commitLock.lock();
        try {
            if (revision != this.revision + 1) {
                throw new IllegalStateException("revision " + revision + " does not follow " + this.revision);
            }
            install(new ChangeEvent(revision, type, object, newest(object.key()), committedAtMillis));
            assigned = revision;
        } finally {
            commitLock.unlock();
        }
    }

    /**
     * What a snapshot holds, read consistently: the revision, and the retained events (oldest first) with the
     * state they lead to, each object as of that revision. Holds the commit lock only to fix the revision.
     *
     * @throws StoreException.Compacted if the revision is compacted while the objects are read (try again)
     */
    public SnapshotView snapshotView() {
        long at;
        List<ChangeEvent> events;
        commitLock.lock();
        try {
            at = revision;
            events = history.after(history.oldest(), Integer.MAX_VALUE);
        } finally {
            commitLock.unlock();
        }
        List<StoredObject> objects = new ArrayList<>();
        checkReadable(at);
        for (VersionChain chain : index.values()) {
            StoredObject value = chain.valueAt(at);
            if (value != null) {
                objects.add(value);
            }
        }
        checkReadable(at);
        return new SnapshotView(at, events, objects);
    }

    /**
     * @param events  the retained history, oldest first, ending at {@code revision}
     * @param objects every object live at {@code revision}, in key order
     */
    public record SnapshotView(long revision, List<ChangeEvent> events, List<StoredObject> objects) {
    }

    private void checkGuard(Mutation.Guard guard) {
        StoredObject value = newest(guard.key());
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
