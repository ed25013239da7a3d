package io.watchgate.store;

/** What a committed mutation did to its key, named as Kubernetes watch events name it. */
public enum EventType {
    ADDED, MODIFIED, DELETED
}
