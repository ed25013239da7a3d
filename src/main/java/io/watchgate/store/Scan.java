package io.watchgate.store;

import java.util.List;

/**
 * One stretch of a snapshot read by {@link Store#scan}.
 *
 * @param lastExamined the last key examined, where the next stretch starts; null when the range is done
 */
public record Scan(List<StoredObject> matches, ObjectKey lastExamined) {

    public boolean isDone() {
        return lastExamined == null;
    }
}
