package io.watchgate.http;

/**
 * Thrown by work that finds, part way through, that it would hold an event loop longer than any other client of that
 * loop should wait: what a request costs is not always known from its size (a short string against a large pattern).
 * The work has changed nothing yet; it is started again on a worker thread ({@code api.WritePlacement}).
 */
public final class TooLongForAnEventLoop extends RuntimeException {

    public TooLongForAnEventLoop(String what) {
        super(what + " would hold an event loop too long", null, false, false);
    }
}
