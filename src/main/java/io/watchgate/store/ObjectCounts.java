package io.watchgate.store;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * How many objects of each resource the store holds now: kept as commits install, read by metrics at any time.
 * Written under the store's commit lock only.
 */
public final class ObjectCounts {

    private final ConcurrentHashMap<String, AtomicLong> byResource = new ConcurrentHashMap<>();
    private volatile Consumer<String> newResource = resource -> { };

    void change(ChangeEvent event) {
        switch (event.type()) {
            case ADDED -> counter(event.key().resource()).incrementAndGet();
            case DELETED -> counter(event.key().resource()).decrementAndGet();
            default -> {
                // the same object, changed
            }
        }
    }

    /** Every count back to 0 (the resources stay known): before the store's state is replaced. */
    void clear() {
        byResource.values().forEach(count -> count.set(0));
    }

    void restored(StoredObject object) {
        counter(object.key().resource()).incrementAndGet();
    }

    /** Objects of {@code resource} (a plural, group-qualified for other groups than core). */
    public long of(String resource) {
        AtomicLong count = byResource.get(resource);
        return count == null ? 0 : count.get();
    }

    public Set<String> resources() {
        return Set.copyOf(byResource.keySet());
    }

    /** Tells {@code listener} of every resource counted so far, and then of each one as it is first counted. */
    public void onNewResource(Consumer<String> listener) {
        newResource = listener;
        resources().forEach(listener);
    }

    private AtomicLong counter(String resource) {
        AtomicLong count = byResource.get(resource);
        if (count == null) {
            count = new AtomicLong();
            byResource.put(resource, count);
            newResource.accept(resource);
        }
        return count;
    }
}
