package io.watchgate.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.OptionsUtil;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import io.watchgate.store.WatchCache;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Keeps one replica's {@link WatchCache} in step with etcd, as kube-apiserver's reflector keeps its watch cache:
 * reads every key under the prefix at one revision, then follows one etcd watch on the prefix from the next, with
 * progress notifications, so that the cache reaches etcd's revisions that changed none of its keys as well.
 *
 * <p>jetcd calls the listener methods one at a time, in the order etcd sent them, and resumes the watch from the
 * last revision it delivered when the connection breaks.
 */
final class CacheFeed implements Watch.Listener, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CacheFeed.class);
    /** Keys read per request while loading: etcd answers in one message, which gRPC bounds in bytes. */
    private static final int PAGE = 500;

    private final Client client;
    private final EtcdKeys keys;
    private final StoredValues values;
    private final WatchCache cache;
    private final Clock clock;
    private final EtcdHealth health;
    private volatile Watch.Watcher watcher;

    CacheFeed(Client client, EtcdKeys keys, StoredValues values, WatchCache cache, Clock clock, EtcdHealth health) {
        this.client = client;
        this.keys = keys;
        this.values = values;
        this.cache = cache;
        this.clock = clock;
        this.health = health;
    }

    /** Loads the cache and starts following etcd: blocks until loaded, at most {@code timeout}. */
    void start(Duration timeout) {
        long revision = load(timeout);
        WatchOption option = WatchOption.builder().isPrefix(true).withRevision(revision + 1)
                .withProgressNotify(true).build();
        watcher = client.getWatchClient().watch(keys.range(), option, this);
        LOG.infof("watch cache loaded at etcd revision %d", revision);
    }

    /** Asks etcd to tell the watch how far it is, even where nothing under the prefix changed. */
    void requestProgress() {
        client.getWatchClient().requestProgress();
    }

    private long load(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteSequence end = OptionsUtil.prefixEndOf(keys.range());
        ByteSequence from = keys.range();
        long revision = 0;
        List<StoredObject> objects = new ArrayList<>();
        while (true) {
            GetOption.Builder page = GetOption.builder().withRange(end).withLimit(PAGE)
                    .withSortField(GetOption.SortTarget.KEY).withSortOrder(GetOption.SortOrder.ASCEND);
            if (revision != 0) {
                page.withRevision(revision); // every page at the first one's revision: one snapshot
            }
            GetResponse response = await(client.getKVClient().get(from, page.build()), deadline);
            if (revision == 0) {
                revision = response.getHeader().getRevision();
            }
            for (KeyValue kv : response.getKvs()) {
                StoredObject object = decode(kv);
                if (object != null) {
                    objects.add(object);
                }
            }
            List<KeyValue> kvs = response.getKvs();
            if (!response.isMore() || kvs.isEmpty()) {
                break;
            }
            from = kvs.get(kvs.size() - 1).getKey().concat(ByteSequence.from(new byte[] {0}));
        }
        cache.restore(revision, objects);
        return revision;
    }

    private <T> T await(java.util.concurrent.CompletableFuture<T> request, long deadline) {
        try {
            return request.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdUnavailable("interrupted while loading from etcd", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new EtcdUnavailable("could not load the store from etcd: " + cause, cause);
        }
    }

    @Override
    public void onNext(WatchResponse response) {
        health.reached();
        if (response.isProgressNotify()) {
            cache.advanceTo(response.getHeader().getRevision());
            return;
        }
        for (WatchEvent event : response.getEvents()) {
            ChangeEvent change = translate(event);
            if (change == null) {
                continue;
            }
            if (change.revision() <= cache.revision()) {
                LOG.warnf("etcd revision %d changed more than one key under the prefix; watchgate writes one key a "
                        + "revision and serves the first only (%s)", change.revision(), event.getKeyValue().getKey());
                continue;
            }
            cache.install(change);
        }
    }

    /** The event {@code event} is to the cache, or null when it is none of its business. */
    private ChangeEvent translate(WatchEvent event) {
        KeyValue kv = event.getKeyValue();
        ObjectKey key = keys.parse(kv.getKey());
        if (key == null) {
            return null;
        }
        StoredObject previous = cache.newest(key);
        long revision = kv.getModRevision();
        if (event.getEventType() == WatchEvent.EventType.DELETE) {
            if (previous == null) {
                return null;
            }
            StoredObject last = values.at(key, previous.tree().deepCopy(), revision);
            return new ChangeEvent(revision, EventType.DELETED, last, previous, clock.millis());
        }
        if (event.getEventType() != WatchEvent.EventType.PUT) {
            return null;
        }
        StoredObject object = decode(kv);
        if (object == null) {
            return null;
        }
        return new ChangeEvent(revision, previous == null ? EventType.ADDED : EventType.MODIFIED, object, previous,
                clock.millis());
    }

    private StoredObject decode(KeyValue kv) {
        ObjectKey key = keys.parse(kv.getKey());
        if (key == null) {
            LOG.warnf("etcd key %s is under the prefix but names no object; it is not served", kv.getKey());
            return null;
        }
        try {
            return values.decode(key, kv.getValue().getBytes(), kv.getModRevision());
        } catch (IllegalArgumentException e) {
            LOG.warnf("etcd key %s holds no object (%s); it is not served", kv.getKey(), e.getMessage());
            return null;
        }
    }

    @Override
    public void onError(Throwable failure) {
        if (failure instanceof CompactedException compacted) {
            // the watch cannot resume below etcd's compaction; relisting is not built yet (docs/storage.md)
            LOG.errorf("etcd compacted revision %d before this replica read it: its watch cache no longer follows "
                    + "etcd; restart the replica", compacted.getCompactedRevision());
            return;
        }
        health.unreachable(failure);
        LOG.debugf("etcd watch interrupted, jetcd resumes it: %s", failure);
    }

    @Override
    public void onCompleted() {
        LOG.debug("etcd watch completed");
    }

    @Override
    public void close() {
        Watch.Watcher current = watcher;
        if (current != null) {
            current.close();
        }
    }
}
