package io.watchgate.watch;

import java.time.Duration;

/**
 * A watch's timers, on its loop's shared timer ({@link WatchLoop#schedule}): when the server ends it, and how often
 * it gets a bookmark and a heartbeat until then. Bookmarks go to watches that asked for them and to every
 * Server-Sent Events stream: an EventSource cannot ask, and bookmarks keep its Last-Event-ID fresh. Heartbeats go
 * to Server-Sent Events streams, so that proxies keep a quiet one open. What a timer that fires does is its
 * watcher's call ({@link Watcher#onTimer}). Loop thread only, as its watcher.
 */
final class WatchTimers {

    private final Watcher watcher;
    private final WatchSpec spec;
    private final WatchSink sink;
    private final WatchLoop loop;
    private final WatchConfig config;

    WatchTimers(Watcher watcher, WatchSpec spec, WatchSink sink, WatchLoop loop, WatchConfig config) {
        this.watcher = watcher;
        this.spec = spec;
        this.sink = sink;
        this.loop = loop;
        this.config = config;
    }

    /** Arms the watch's end, then its first bookmark and heartbeat, as it has them. */
    void start() {
        loop.schedule(watcher, Watcher.TimerKind.END, spec.lifetime(config).toMillis());
        if (sendsBookmarks()) {
            again(Watcher.TimerKind.BOOKMARK);
        }
        if (isEventStream()) {
            again(Watcher.TimerKind.HEARTBEAT);
        }
    }

    /** Arms the next bookmark or heartbeat: they repeat until the watch ends. */
    void again(Watcher.TimerKind kind) {
        Duration period = kind == Watcher.TimerKind.BOOKMARK ? config.bookmarkInterval() : config.sseHeartbeat();
        loop.schedule(watcher, kind, period.toMillis());
    }

    boolean sendsBookmarks() {
        return spec.bookmarks() || isEventStream();
    }

    boolean isEventStream() {
        return sink.format() == WireFormat.SERVER_SENT_EVENTS;
    }
}
