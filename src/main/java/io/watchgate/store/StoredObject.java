package io.watchgate.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One committed version of an object: the JSON tree (never mutated once committed) and its serialized
 * form, written once at commit so that every reader and watcher shares the same bytes.
 */
public record StoredObject(ObjectKey key, ObjectNode tree, byte[] json, long revision) {
}
