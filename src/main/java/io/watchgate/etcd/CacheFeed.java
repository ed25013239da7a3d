package io.watchgate.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.WatchCache;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Keeps one replica's {@link WatchCache} in step with etcd, as kube-apiserver's reflector keeps its watch cache:
 * reads every key under the prefix at one revision, then follows one etcd watch on the prefix from the next, with
 * progress notifications, so that the cache reaches etcd's revisions that changed none of its keys as well. When
 * etcd has compacted the revisions the watch was to resume from (or the feed fell too far behind, or etcd sent what
 * cannot follow what it had sent), it reads everything again and replaces the cache ({@link WatchCache#replace}),
 * which ends every watch this replica serves, with 410 Expired.
 *
 * <p>Everything it does to the cache runs on one thread of its own, in the order etcd sent it: jetcd's threads only
 * hand responses on. A watch that breaks is followed anew from the revision after the cache's, by this class, not
 * by jetcd, whose resume may start past events it has not delivered yet.
 */
final class CacheFeed implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CacheFeed.class);
    /** How soon a load that failed (etcd unreachable) is tried again, while relisting. */
    private static final Duration RELIST_RETRY = Duration.ofSeconds(1);
    /** How often etcd is asked whether it answers. */
    private static final Duration PROBE = Duration.ofSeconds(1);
    /** How soon a broken watch is followed again: the first time, then twice as long each time, up to the most. */
    private static final Duration FIRST_RETRY = Duration.ofMillis(250);
    private static final Duration MOST_RETRY = Duration.ofSeconds(5);
    /** What the watch's responses waiting for the feed thread may hold, in keys' and values' bytes. */
    private static final long MAX_QUEUED_BYTES = 64L << 20;
    /** Probes between two looks at whether the cache's revision moved: 30 s. */
    private static final int IDLE_CHECK = 30;
    private static final GetOption PROBE_READ = GetOption.builder().withKeysOnly(true).withLimit(1).build();

    private final Client client;
    private final EtcdKeys keys;
    private final WatchEvents events;
    private final WatchCache cache;
    private final Clock clock;
    private final EtcdHealth health;
    private final RevisionSync sync;
    private final PrefixLoad loader;
    /** Feed thread: the cache's revision at the last idle check, to move it on when nothing else does. */
    private long revisionAtLastCheck;
    private int probes;
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
    /** The bytes of the responses handed to the feed thread and not applied yet (jetcd's thread adds). */
    private final AtomicLong queuedBytes = new AtomicLong();

    CacheFeed(Client client, EtcdKeys keys, WatchEvents events, WatchCache cache, Clock clock, EtcdHealth health,
            RevisionSync sync, Duration loadTimeout) {
        this.client = client;
        this.keys = keys;
        this.events = events;
        this.cache = cache;
        this.clock = clock;
        this.health = health;
        this.loadTimeout = loadTimeout;
        this.sync = sync;
        this.loader = new PrefixLoad(client, keys, events, health);
    }

    /** Loads the cache and starts following etcd; blocks until loaded, at most {@code startTimeout}. */
    void start(Duration startTimeout) {
        PrefixLoad.Snapshot loaded = loader.load(startTimeout);
        cache.restore(loaded.revision(), loaded.objects());
        LOG.infof("watch cache loaded at etcd revision %d: %d objects", loaded.revision(), loaded.objects().size());
        onFeed(() -> follow(loaded.revision() + 1)).join();
        thread.scheduleWithFixedDelay(this::probe, PROBE.toMillis(), PROBE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Feed thread, every {@link #PROBE}: whether etcd answers (a read of one key); and every {@link #IDLE_CHECK}
     * probes, a put of the marker if the cache's revision has not moved since the last check, so that a watch that
     * breaks after a quiet while resumes from a revision etcd's compaction has not taken yet.
     */
    private void probe() {
        if (++probes % IDLE_CHECK == 0) {
            if (cache.revision() == revisionAtLastCheck) {
                sync.request();
            }
            revisionAtLastCheck = cache.revision();
        }
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
                response -> handOn(response, mine),
                failure -> thread.execute(() -> {
                    if (generation == mine) {
                        guarded(() -> failed(failure));
                    }
                }),
                () -> thread.execute(() -> {
                    if (generation == mine) {
                        guarded(() -> failed(new IllegalStateException("etcd ended the watch")));
                    }
                })));
    }

    /**
     * jetcd's thread: queues {@code response} for the feed thread, unless the responses queued already hold
     * {@link #MAX_QUEUED_BYTES}: a feed that far behind (large objects written faster than it decodes them) stops
     * following and reads everything again, rather than queue without bound.
     */
    private void handOn(WatchResponse response, long mine) {
        long bytes = 0;
        for (WatchEvent event : response.getEvents()) {
            bytes += event.getKeyValue().getKey().size() + event.getKeyValue().getValue().size();
        }
        long size = bytes;
        if (queuedBytes.addAndGet(size) > MAX_QUEUED_BYTES) {
            queuedBytes.addAndGet(-size);
            thread.execute(() -> {
                if (generation == mine) {
                    LOG.warnf("more than %d bytes of etcd's events wait to be applied: reading everything again",
                            MAX_QUEUED_BYTES);
                    generation++;
                    closeWatcher();
                    guarded(this::relist);
                }
            });
            return;
        }
        thread.execute(() -> {
            queuedBytes.addAndGet(-size);
            if (generation == mine) {
                guarded(() -> apply(response));
            }
        });
    }

    private void closeWatcher() {
        if (watcher != null) {
            watcher.close();
            watcher = null;
        }
    }

    /**
     * Feed thread: runs {@code step}; what it throws unforeseen (the cache may now miss what the step was applying)
     * is logged, and everything is read again.
     */
    private void guarded(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            LOG.errorf(e, "following etcd failed: reading everything again");
            generation++;
            closeWatcher();
            long mine = generation;
            thread.schedule(() -> {
                if (generation == mine) {
                    guarded(this::relist);
                }
            }, RELIST_RETRY.toMillis(), TimeUnit.MILLISECONDS);
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
            if (revision < cache.revision() || revision == cache.revision() && !keys.isMarker(event.getKeyValue()
                    .getKey())) {
                // a revision already reached (watchgate writes one key a revision): what came before it may have
                // been skipped
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
                cache.advanceTo(revision); // nothing of the store's changed, but the revision is reached
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
        // whether etcd answers is the probe's to say: a watch also breaks when one member of a cluster restarts
        long mine = ++generation;
        closeWatcher();
        Duration wait = retry;
        retry = wait.multipliedBy(2).compareTo(MOST_RETRY) > 0 ? MOST_RETRY : wait.multipliedBy(2);
        LOG.debugf("etcd watch broken (%s): followed again in %s", failure, wait);
        thread.schedule(() -> {
            if (generation == mine) {
                guarded(() -> follow(cache.revision() + 1));
            }
        }, wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Feed thread: replaces the cache with everything read anew, then follows etcd from there. */
    private void relist() {
        PrefixLoad.Snapshot loaded;
        try {
            loaded = loader.load(loadTimeout);
        } catch (EtcdUnavailable e) {
            health.unreachable(e.getCause() != null ? e.getCause() : e);
            LOG.warnf("relisting from etcd failed, again in %s: %s", RELIST_RETRY, e.getMessage());
            long mine = generation;
            thread.schedule(() -> {
                if (generation == mine) {
                    guarded(this::relist);
                }
            }, RELIST_RETRY.toMillis(), TimeUnit.MILLISECONDS);
            return;
        }
        if (loaded.revision() > cache.revision()) {
            cache.replace(loaded.revision(), loaded.objects(), clock.millis());
        }
        follow(Math.max(loaded.revision(), cache.revision()) + 1);
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
