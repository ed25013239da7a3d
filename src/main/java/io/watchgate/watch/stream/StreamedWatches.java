package io.watchgate.watch.stream;

import io.watchgate.status.ApiException;
import io.watchgate.store.ObjectKey;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The watches of one stream, in the order they were given: what it offers each event to, and what its loop indexes
 * and counts it by. A watch removed is marked ended too, so that work under way for it (its snapshot) stops.
 * Loop thread only, as its stream.
 */
final class StreamedWatches implements Iterable<StreamedWatch> {

    private final List<StreamedWatch> watches;

    StreamedWatches(List<StreamedWatch> watches) {
        this.watches = new ArrayList<>(watches);
    }

    @Override
    public Iterator<StreamedWatch> iterator() {
        return watches.iterator();
    }

    /** The resource of each watch, one entry per watch. */
    List<String> resources() {
        return watches.stream().map(watch -> watch.spec().type().storageResource()).toList();
    }

    int size() {
        return watches.size();
    }

    boolean isEmpty() {
        return watches.isEmpty();
    }

    /** The watch tagged {@code tag}, or null. */
    StreamedWatch tagged(String tag) {
        for (StreamedWatch watch : watches) {
            if (watch.tag().equals(tag)) {
                return watch;
            }
        }
        return null;
    }

    void remove(StreamedWatch watch) {
        watch.end();
        watches.remove(watch);
    }

    /** Whether the object at {@code key} is in the range of one of them. */
    boolean concern(ObjectKey key) {
        for (StreamedWatch watch : watches) {
            if (!watch.hasEnded() && watch.spec().range().contains(key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Places each watch as the stream opens at {@code now}: one that asks for initial events among the snapshots (at
     * {@code now}), one from a resourceVersion after it, any other after {@code now}.
     *
     * @return the stream's position: the oldest revision any watch starts after
     */
    long placeAll(long now, StreamSnapshots snapshots) {
        long position = now;
        for (StreamedWatch watch : watches) {
            long resourceVersion = watch.spec().resourceVersion();
            if (watch.spec().initialEvents()) {
                snapshots.add(watch, now);
            } else {
                watch.startAfter(resourceVersion > 0 ? resourceVersion : now);
            }
            position = Math.min(position, watch.since());
        }
        return position;
    }

    /**
     * Adds a watch to a running stream at {@code position}: with its initial events at {@code newest} (the others
     * catching up to it from history first, so that one order holds), or after the position or its own later
     * resourceVersion. Not before: the stream is past it.
     *
     * @throws ApiException 400 for a resourceVersion the stream has passed
     */
    void place(StreamedWatch watch, long position, long newest, StreamSnapshots snapshots) {
        long resourceVersion = watch.spec().resourceVersion();
        if (watch.spec().initialEvents()) {
            snapshots.add(watch, newest);
        } else if (resourceVersion > 0 && resourceVersion < position) {
            throw ApiException.badRequest("resourceVersion " + resourceVersion + " is before the stream's position "
                    + position + ": a watch added to a running stream starts there or later (ask for its initial "
                    + "events, or give its resourceVersion when the stream opens)");
        } else {
            watch.startAfter(Math.max(resourceVersion, position));
        }
        watches.add(watch);
    }

    /** Removes and returns the watches whose grant no longer holds. */
    List<StreamedWatch> removeWithdrawn() {
        List<StreamedWatch> withdrawn = new ArrayList<>();
        for (StreamedWatch watch : watches) {
            if (!watch.spec().grant().holds()) {
                withdrawn.add(watch);
            }
        }
        withdrawn.forEach(this::remove);
        return withdrawn;
    }
}
