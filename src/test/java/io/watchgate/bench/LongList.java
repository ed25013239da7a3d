package io.watchgate.bench;

import java.util.Arrays;

/** A growable array of longs, without boxing. Not thread-safe: each owner uses it from one thread. */
final class LongList {

    private long[] values;
    private int size;

    LongList() {
        this(64);
    }

    LongList(int capacity) {
        values = new long[Math.max(capacity, 8)];
    }

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[size++] = value;
    }

    void addAll(LongList other) {
        if (size + other.size > values.length) {
            values = Arrays.copyOf(values, Math.max(values.length * 2, size + other.size));
        }
        System.arraycopy(other.values, 0, values, size, other.size);
        size += other.size;
    }

    void clear() {
        size = 0;
    }

    long get(int index) {
        return values[index];
    }

    int size() {
        return size;
    }

    long[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
