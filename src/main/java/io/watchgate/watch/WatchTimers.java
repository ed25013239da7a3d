package io.watchgate.watch;

import java.time.Duration;

/**
 * A subscriber's timers, on its loop's shared timer ({@link WatchLoop#schedule}): when the server ends it, and how
 * often it gets a bookmark and a heartbeat until then. Bookmarks go to watches that asked for them and to every
 * Server-Sent Events stream: an EventSource cannot ask, and bookmarks keep its Last-Event-ID fresh. Heartbeats go
 * to Server-Sent Events streams, so that proxies keep a quiet one open. What a timer that fires does is its
 * subscriber's call ({@link Subscriber#onTimer}). Loop thread only, as its subscriber.
 */
public final class WatchTimers {

    private final Subscriber subscriber;
    private final Duration lifetime;
    private final boolean bookmarks;
    private final WatchSink sink;
    private final WatchLoop loop;
    private final WatchConfig config;

    /** @param bookmarks whether its client asked for bookmarks (an EventSource gets them anyway) */
    public WatchTimers(Subscriber subscriber, Duration lifetime, boolean bookmarks, WatchSink sink, WatchLoop loop,
            WatchConfig config) {
        this.subscriber = subscriber;
        this.lifetime = lifetime;
        this.bookmarks = bookmarks;
        this.sink = sink;
        this.loop = loop;
        this.config = config;
    }

    /** Arms its end, then its first bookmark and heartbeat, as it has them. */
    public void start() {
        loop.schedule(subscriber, Subscriber.TimerKind.END, lifetime.toMillis());
        if (sendsBookmarks()) {
            again(Subscriber.TimerKind.BOOKMARK);
        }
        if (isEventStream()) {
            again(Subscriber.TimerKind.HEARTBEAT);
        }
    }

    /** Arms the next bookmark or heartbeat: they repeat until it ends. */
    public void again(Subscriber.TimerKind kind) {
        Duration period = kind == Subscriber.TimerKind.BOOKMARK ? config.bookmarkInterval() : config.sseHeartbeat();
        loop.schedule(subscriber, kind, period.toMillis());
    }

    boolean sendsBookmarks() {
        return bookmarks || isEventStream();
    }

    boolean isEventStream() {
        return sink.format() == WireFormat.SERVER_SENT_EVENTS;
    }
}
