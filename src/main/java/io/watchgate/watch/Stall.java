package io.watchgate.watch;

/**
 * What a watcher costs while its client is not reading and it waits for a drain (stalled, or paused in its initial
 * events): what is queued for that client counts against the server's memory budget through its loop
 * ({@link WatchLoop#pinned}), and the events for it that go by unsent are counted, in number and in bytes, so that
 * it is ended past {@link WatchConfig#maxBacklog()} or {@link WatchConfig#maxBacklogBytes()}. The events themselves
 * are not kept: the watcher reads them from the store's history, shared by every watcher, once its client drains.
 * Like etcd's victim watchers and kube-apiserver's blocked cacheWatchers, a slow client is bounded, not queued for.
 *
 * <p>Waits are numbered because Vert.x calls a drain handler at every return to writable: only the newest wait may
 * act, and once. Loop thread only, as its watcher.
 */
public final class Stall {

    /**
     * Netty's default high-water mark, which Vert.x keeps: a sink reports full once more than this is queued, so
     * a watcher that stops at full has at most this plus its last frame queued. (Netty copies each frame into a
     * direct buffer of the connection's, so those bytes are the watcher's own, not shared.)
     */
    private static final long QUEUED_BEFORE_FULL = 64 * 1024;

    private final Subscriber watcher;
    private final WatchSink sink;
    private final WatchLoop loop;
    private final WatchConfig config;
    /** The number of the newest wait for a drain: an older wait's drain does nothing. */
    private int newestWait;
    /** The bytes of the last frame written: with a full queue, it is most of what is queued. */
    private int lastWritten;
    /** The bytes counted against the memory budget while waiting for a drain, or 0. */
    private long pinned;
    private int eventsWentBy;
    private long bytesWentBy;

    public Stall(Subscriber watcher, WatchSink sink, WatchLoop loop, WatchConfig config) {
        this.watcher = watcher;
        this.sink = sink;
        this.loop = loop;
        this.config = config;
    }

    /** Every frame written comes through here: the last one is what a stall that begins next pins, above the rest. */
    public void wrote(int frameBytes) {
        lastWritten = frameBytes;
    }

    /**
     * Runs {@code next} in the watcher's turn once the client has taken up what is queued, unless its watcher ended
     * meanwhile; what is queued counts against the memory budget until the drain.
     */
    public void afterDrain(Runnable next) {
        int wait = ++newestWait;
        pin();
        sink.onDrain(() -> {
            if (wait == newestWait && !watcher.hasEnded()) {
                newestWait++;
                unpin();
                // not here, in the loop's reading of sockets, where every client's drain would send at once
                loop.runSoon(() -> {
                    if (!watcher.hasEnded()) {
                        watcher.guarded(next);
                    }
                });
            }
        });
    }

    /**
     * While it waits, its watcher also keeps {@code bytes} of its own for its client (a stream's coalesced changes):
     * counted against the memory budget with what is queued, so that a server short of memory ends it too.
     */
    public void alsoKeeps(long bytes) {
        if (pinned != 0) {
            loop.pinned(watcher, pinned + bytes);
        }
    }

    /** The watcher went live: no earlier wait may act on it, and it waits for nothing. */
    public void cancel() {
        newestWait++;
        unpin();
    }

    public boolean isPinned() {
        return pinned != 0;
    }

    /**
     * An event for this watcher went by unsent while it waited: it is counted, not kept.
     *
     * @return why the watcher must end now, or null while it is within its bounds
     */
    public String wentBy(int objectBytes) {
        bytesWentBy += objectBytes;
        if (++eventsWentBy > config.maxBacklog()) {
            return eventsWentBy + " events behind";
        }
        if (bytesWentBy > config.maxBacklogBytes()) {
            return bytesWentBy + " bytes of events behind";
        }
        return null;
    }

    private void pin() {
        if (pinned == 0) {
            pinned = lastWritten + QUEUED_BEFORE_FULL;
            eventsWentBy = 0;
            bytesWentBy = 0;
            loop.pinned(watcher, pinned);
        }
    }

    private void unpin() {
        if (pinned != 0) {
            pinned = 0;
            loop.unpinned(watcher);
        }
    }
}
