package io.watchgate.authz.rbac;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * An immutable map from names, split by hash into a fixed number of chunks, so that a changed copy shares all
 * chunks but one: a change costs a small array and one chunk (about 1/{@value #CHUNKS} of the entries), not the
 * whole map. What the policy snapshot is made of, changed under the store's commit lock.
 */
final class ChunkedMap<V> {

    static final int CHUNKS = 32;

    private static final Map<String, ?> EMPTY_CHUNK = Map.of();
    private static final ChunkedMap<?> EMPTY = new ChunkedMap<>(filled(), 0);

    private final Map<String, V>[] chunks;
    private final int size;

    private ChunkedMap(Map<String, V>[] chunks, int size) {
        this.chunks = chunks;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    static <V> ChunkedMap<V> empty() {
        return (ChunkedMap<V>) EMPTY;
    }

    @SuppressWarnings("unchecked")
    private static <V> Map<String, V>[] filled() {
        Map<String, V>[] chunks = new Map[CHUNKS];
        Arrays.fill(chunks, EMPTY_CHUNK);
        return chunks;
    }

    private static int chunkOf(String key) {
        int hash = key.hashCode();
        return (hash ^ (hash >>> 16)) & (CHUNKS - 1);
    }

    V get(String key) {
        return chunks[chunkOf(key)].get(key);
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void forEachValue(Consumer<V> action) {
        for (Map<String, V> chunk : chunks) {
            chunk.values().forEach(action);
        }
    }

    /** This map with {@code key} set to {@code value}. */
    ChunkedMap<V> with(String key, V value) {
        int index = chunkOf(key);
        Map<String, V> chunk = new HashMap<>(chunks[index]);
        boolean added = chunk.put(key, value) == null;
        Map<String, V>[] copied = chunks.clone();
        copied[index] = chunk;
        return new ChunkedMap<>(copied, added ? size + 1 : size);
    }

    /** This map without {@code key} (this very map when it has none). */
    ChunkedMap<V> without(String key) {
        int index = chunkOf(key);
        if (!chunks[index].containsKey(key)) {
            return this;
        }
        Map<String, V> chunk = new HashMap<>(chunks[index]);
        chunk.remove(key);
        Map<String, V>[] copied = chunks.clone();
        copied[index] = chunk.isEmpty() ? emptyChunk() : chunk;
        return new ChunkedMap<>(copied, size - 1);
    }

    @SuppressWarnings("unchecked")
    private static <V> Map<String, V> emptyChunk() {
        return (Map<String, V>) EMPTY_CHUNK;
    }
}
