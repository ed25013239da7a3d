package io.watchgate.store;

import java.util.List;

/**
 * What a snapshot holds, read consistently.
 *
 * @param events  the retained history, oldest first, ending at {@code revision}
 * @param objects every object live at {@code revision}, in key order
 */
public record SnapshotView(long revision, List<ChangeEvent> events, List<StoredObject> objects) {
}
