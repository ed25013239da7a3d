package io.watchgate.watch.stream;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.watchgate.watch.WatchSpec;

/**
 * One watch of a stream: the collection URL its client gave, exactly as given (its events carry it back), and what
 * it asks for. Which events it is sent is decided as for a single watch of {@code spec}; the stream only adds from
 * which revision on ({@link #since()}).
 */
public final class StreamedWatch {

    private final String url;
    /** The URL as the inside of a JSON string, as every event of this watch carries it. */
    private final byte[] quotedUrl;
    private final WatchSpec spec;
    private long since;
    private boolean ended;

    public StreamedWatch(String url, WatchSpec spec) {
        this.url = url;
        this.quotedUrl = JsonStringEncoder.getInstance().quoteAsUTF8(url);
        this.spec = spec;
    }

    public String url() {
        return url;
    }

    byte[] quotedUrl() {
        return quotedUrl;
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

    boolean hasEnded() {
        return ended;
    }

    void end() {
        ended = true;
    }
}
