package io.watchgate.watch;

/**
 * Whether a watch's user may still watch what it watches. A watch is authorized once, as it starts (as in
 * Kubernetes); when the server learns that permissions were taken away, each open watch asks its grant again, and one
 * that no longer holds is ended cleanly: the client's next request meets authorization afresh.
 */
@FunctionalInterface
public interface WatchGrant {

    /** For servers that allow everything, and watches started by the server itself. */
    WatchGrant ALWAYS = () -> true;

    /** Asked on the watch's event loop: it must answer from memory. */
    boolean holds();
}
