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
import io.watchgate.store.WatchCache;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Keeps one replica's {@link WatchCache} in step with etcd, as kube-apiserver's reflector keeps its watch cache:
 * reads every key under the prefix at one revision, then follows one etcd watch on the prefix from the next, with
 * progress notifications, so that the cache reaches etcd's revisions that changed none of its keys as well. When
 * etcd has compacted the revisions the watch was to resume from, it reads everything again and replaces the cache
 * ({@link WatchCache#replace}), which ends the watches that cannot go on.
 *
 * <p>Everything it does to the cache runs on one thread of its own, in the order etcd sent it: jetcd's threads only
 * hand responses on. A watch that breaks is followed anew from the revision after the cache's, by this class, not
 * by jetcd, whose resume may start past events it has not delivered yet.
 */
final class CacheFeed implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CacheFeed.class);
    /** Keys read per request while loading: etcd answers in one message, which gRPC bounds in bytes. */
    private static final int PAGE = 100;
    /** How soon a load that failed (etcd unreachable) is tried again, while relisting. */
    private static final Duration RELIST_RETRY = Duration.ofSeconds(1);
    /** How often etcd is asked whether it answers. */
    private static final Duration PROBE = Duration.ofSeconds(1);
    /** How soon a broken watch is followed again: the first time, then twice as long each time, up to the most. */
    private static final Duration FIRST_RETRY = Duration.ofMillis(250);
    private static final Duration MOST_RETRY = Duration.ofSeconds(5);
    private static final GetOption PROBE_READ = GetOption.builder().withKeysOnly(true).withLimit(1).build();

    private final Client client;
    private final EtcdKeys keys;
    private final WatchEvents events;
    private final WatchCache cache;
    private final Clock clock;
    private final EtcdHealth health;
    /** How long a relist may take to read everything (the start's timeout). */
    private final Duration loadTimeout;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread feed = new Thread(runnable, "watchgate-etcd-feed");
        feed.setDaemon(true);
        return feed;
    });
    /** Feed thread only: the watch now followed, and its generation (responses of an older one are dropped). */
    private Watch.Watcher watcher;
    private long generation;
    private Duration retry = FIRST_RETRY;

    CacheFeed(Client client, EtcdKeys keys, WatchEvents events, WatchCache cache, Clock clock, EtcdHealth health,
            Duration loadTimeout) {
        this.client = client;
        this.keys = keys;
        this.events = events;
        this.cache = cache;
        this.clock = clock;
        this.health = health;
        this.loadTimeout = loadTimeout;
    }

    /** Loads the cache and starts following etcd; blocks until loaded, at most {@code startTimeout}. */
    void start(Duration startTimeout) {
        Snapshot loaded = load(startTimeout);
        cache.restore(loaded.revision(), loaded.objects());
        LOG.infof("watch cache loaded at etcd revision %d: %d objects", loaded.revision(), loaded.objects().size());
        onFeed(() -> follow(loaded.revision() + 1)).join();
        thread.scheduleWithFixedDelay(this::probe, PROBE.toMillis(), PROBE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Feed thread, every {@link #PROBE}: whether etcd answers (a read of one key). */
    private void probe() {
        client.getKVClient().get(keys.marker(), PROBE_READ).orTimeout(PROBE.toMillis() * 2, TimeUnit.MILLISECONDS)
                .whenComplete((answer, failure) -> {
                    if (failure == null) {
                        health.reached();
                    } else {
                        health.unreachable(failure);
                    }
                });
    }

    /** etcd's current revision, or -1 when etcd does not answer within the timeout (which marks it unreachable). */
    CompletableFuture<Long> etcdRevision() {
        return client.getKVClient().get(keys.marker(), PROBE_READ).orTimeout(PROBE.toMillis() * 2,
                TimeUnit.MILLISECONDS)
                .handle((answer, failure) -> {
                    if (failure != null) {
                        health.unreachable(failure);
                        return -1L;
                    }
                    health.reached();
                    return answer.getHeader().getRevision();
                });
    }

    /** Stops following etcd, leaving the cache as it is: what a test does to let etcd compact under it. */
    void pause() {
        onFeed(() -> {
            generation++;
            closeWatcher();
        }).join();
    }

    /** Follows etcd again from the revision after the cache's (relisting if etcd compacted it meanwhile). */
    void resume() {
        onFeed(() -> follow(cache.revision() + 1)).join();
    }

    private record Snapshot(long revision, List<io.watchgate.store.StoredObject> objects) {
    }

    private CompletableFuture<Void> onFeed(Runnable task) {
        return CompletableFuture.runAsync(task, thread);
    }

    /** Feed thread: a new watch from {@code revision}, whose responses come back to this thread. */
    private void follow(long revision) {
        closeWatcher();
        long mine = ++generation;
        WatchOption option = WatchOption.builder().isPrefix(true).withRevision(revision).withProgressNotify(true)
                .build();
        watcher = client.getWatchClient().watch(keys.range(), option, Watch.listener(
                response -> thread.execute(() -> {
                    if (generation == mine) {
                        apply(response);
                    }
                }),
                failure -> thread.execute(() -> {
                    if (generation == mine) {
                        failed(failure);
                    }
                }),
                () -> thread.execute(() -> {
                    if (generation == mine) {
                        failed(new IllegalStateException("etcd ended the watch"));
                    }
                })));
    }

    private void closeWatcher() {
        if (watcher != null) {
            watcher.close();
            watcher = null;
        }
    }

    /** Feed thread. */
    private void apply(WatchResponse response) {
        health.reached();
        retry = FIRST_RETRY;
        if (response.isProgressNotify()) {
            // etcd sends these unasked only to a watch that has been sent everything up to their revision
            cache.advanceTo(response.getHeader().getRevision());
            return;
        }
        for (WatchEvent event : response.getEvents()) {
            long revision = event.getKeyValue().getModRevision();
            if (revision < cache.revision()) {
                LOG.errorf("etcd sent revision %d after this replica had reached %d: reading everything again",
                        revision, cache.revision());
                generation++;
                closeWatcher();
                relist();
                return;
            }
            if (keys.isMarker(event.getKeyValue().getKey())) {
                cache.advanceTo(revision);
                continue;
            }
            ChangeEvent change = events.translate(event, cache);
            if (change == null) {
                continue;
            }
            if (change.revision() == cache.revision()) {
                LOG.warnf("etcd revision %d changed more than one key under the prefix; watchgate writes one key a "
                        + "revision and serves the first only (%s)", change.revision(), change.key());
                continue;
            }
            cache.install(change);
        }
    }

    /** Feed thread. */
    private void failed(Throwable failure) {
        if (failure instanceof CompactedException compacted) {
            LOG.warnf("etcd compacted revision %d before this replica read past it: reading everything again; "
                    + "watches from before it end with 410 Expired", compacted.getCompactedRevision());
            generation++;
            closeWatcher();
            relist();
            return;
        }
        health.unreachable(failure);
        long mine = ++generation;
        closeWatcher();
        Duration wait = retry;
        retry = wait.multipliedBy(2).compareTo(MOST_RETRY) > 0 ? MOST_RETRY : wait.multipliedBy(2);
        LOG.debugf("etcd watch broken (%s): followed again in %s", failure, wait);
        thread.schedule(() -> {
            if (generation == mine) {
                follow(cache.revision() + 1);
            }
        }, wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Feed thread: replaces the cache with everything read anew, then follows etcd from there. */
    private void relist() {
        Snapshot loaded;
        try {
            loaded = load(loadTimeout);
        } catch (EtcdUnavailable e) {
            health.unreachable(e.getCause() != null ? e.getCause() : e);
            LOG.warnf("relisting from etcd failed, again in %s: %s", RELIST_RETRY, e.getMessage());
            long mine = generation;
            thread.schedule(() -> {
                if (generation == mine) {
                    relist();
                }
            }, RELIST_RETRY.toMillis(), TimeUnit.MILLISECONDS);
            return;
        }
        if (loaded.revision() > cache.revision()) {
            cache.replace(loaded.revision(), loaded.objects(), clock.millis());
        }
        follow(Math.max(loaded.revision(), cache.revision()) + 1);
    }

    /** Every key under the prefix at one revision (the first page's), a page at a time. */
    private Snapshot load(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        ByteSequence end = OptionsUtil.prefixEndOf(keys.range());
        ByteSequence from = keys.range();
        long revision = 0;
        List<io.watchgate.store.StoredObject> objects = new ArrayList<>();
        while (true) {
            GetOption.Builder page = GetOption.builder().withRange(end).withLimit(PAGE)
                    .withSortField(GetOption.SortTarget.KEY).withSortOrder(GetOption.SortOrder.ASCEND);
            if (revision != 0) {
                page.withRevision(revision); // every page at the first one's revision: one snapshot
            }
            GetResponse response = await(client.getKVClient().get(from, page.build()), deadline);
            health.reached();
            if (revision == 0) {
                revision = response.getHeader().getRevision();
            }
            List<KeyValue> kvs = response.getKvs();
            for (KeyValue kv : kvs) {
                io.watchgate.store.StoredObject object = events.decode(kv);
                if (object != null) {
                    objects.add(object);
                }
            }
            if (!response.isMore() || kvs.isEmpty()) {
                return new Snapshot(revision, objects);
            }
            from = kvs.get(kvs.size() - 1).getKey().concat(ByteSequence.from(new byte[] {0}));
        }
    }

    private static <T> T await(CompletableFuture<T> request, long deadline) {
        try {
            return request.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdUnavailable("interrupted while reading from etcd", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new EtcdUnavailable("could not read the store from etcd: " + cause, cause);
        }
    }

    @Override
    public void close() {
        try {
            onFeed(() -> {
                generation++;
                closeWatcher();
            }).get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debugf("closing the etcd watch: %s", e);
        }
        thread.shutdownNow();
    }
}
