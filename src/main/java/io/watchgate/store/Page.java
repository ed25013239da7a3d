package io.watchgate.store;

import java.util.List;

/**
 * One page of a snapshot read.
 *
 * @param remaining how many more matching objects follow this page in the same snapshot (when counted; else
 *                  1 if any do)
 */
public record Page(long revision, List<StoredObject> items, int remaining) {

    public boolean hasMore() {
        return remaining > 0;
    }

    public StoredObject last() {
        return items.get(items.size() - 1);
    }
}
