package io.watchgate.objects;

import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import java.util.List;

/**
 * One page of a list, ready to render.
 *
 * @param continueToken null on the last page
 * @param remaining     objects after this page in the same snapshot, or null when none remain
 */
public record ListResult(ResourceType type, long revision, List<StoredObject> items, String continueToken,
        Integer remaining) {
}
