package io.watchgate.watch.stream;

import io.watchgate.status.ApiException;

/**
 * A running stream's watches as its WebSocket client adds and stops them: each added watch starts where
 * {@link StreamedWatches#place} says, each stopped one ends at once with a {@code STOPPED} answer, and what cannot be
 * done is told to the client as an ERROR of the watch (or, without an id, of the stream) that does not end the stream.
 * Loop thread only, as its stream.
 */
public final class StreamMembers {

    private final WatchStream stream;

    public StreamMembers(WatchStream stream) {
        this.stream = stream;
    }

    /**
     * Adds a watch, admitted and authorized.
     *
     * @throws ApiException 400 for a resourceVersion the stream has passed
     */
    public void add(StreamedWatch watch) {
        if (!stream.hasEnded()) {
            stream.place(watch);
        }
    }

    /** Ends the watch tagged {@code tag}, and tells the client so ({@code STOPPED}); false if there is none. */
    public boolean stop(String tag) {
        StreamedWatch watch = stream.watches().tagged(tag);
        if (watch != null) {
            stream.stopped(watch);
        }
        return watch != null;
    }

    /** Whether one of its watches is tagged {@code tag}. */
    public boolean has(String tag) {
        return stream.watches().tagged(tag) != null;
    }

    public int count() {
        return stream.watches().size();
    }

    /** Tells the client of something refused: of one watch when {@code tag} is given, else of the stream. */
    public void refuse(String tag, ApiException e) {
        StreamFrames format = stream.format();
        stream.tell(tag == null ? format.streamNotice(e) : format.error(new StreamedWatch(tag, "", null), e));
    }
}
