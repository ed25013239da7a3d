package io.watchgate.watch.stream;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.watchgate.watch.WatchSpec;

/**
 * One watch of a stream: the collection URL its client gave, the tag its events carry back to say they are its (that
 * URL exactly as given, or over a WebSocket the id the client gave it), and what it asks for. Which events it is
 * sent is decided as for a single watch of {@code spec}; the stream only adds from which revision on
 * ({@link #since()}).
 */
public final class StreamedWatch {

    private final String tag;
    private final String url;
    /** The tag as the inside of a JSON string, as every event of this watch carries it. */
    private final byte[] quotedTag;
    private final WatchSpec spec;
    private long since;
    private boolean awaitsSnapshot;
    private boolean ended;

    /** A watch tagged with its URL, as over Server-Sent Events. */
    public StreamedWatch(String url, WatchSpec spec) {
        this(url, url, spec);
    }

    public StreamedWatch(String tag, String url, WatchSpec spec) {
        this.tag = tag;
        this.url = url;
        this.quotedTag = JsonStringEncoder.getInstance().quoteAsUTF8(tag);
        this.spec = spec;
    }

    public String tag() {
        return tag;
    }

    public String url() {
        return url;
    }

    byte[] quotedTag() {
        return quotedTag;
    }

    public WatchSpec spec() {
        return spec;
    }

    /** The revision after which its changes are sent: those up to it are in its snapshot, or came before it asked. */
    long since() {
        return since;
    }

    void startAfter(long revision) {
        since = revision;
    }

    /** Whether its initial events are still to be sent: its changes come after them, from history. */
    boolean awaitsSnapshot() {
        return awaitsSnapshot;
    }

    void awaitSnapshot(boolean awaits) {
        awaitsSnapshot = awaits;
    }

    boolean hasEnded() {
        return ended;
    }

    void end() {
        ended = true;
    }
}
