package io.watchgate.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An object's JSON made before its commit, with a stand-in where its resourceVersion goes: under the commit lock,
 * the write then copies its bytes with the revision in (a memory copy) instead of serializing its tree (tens of
 * milliseconds for megabytes of small fields, which every other writer, event loops included, would wait for).
 *
 * <p>The stand-in is a random token, and it is used only if it occurs exactly once in the bytes, where it was put:
 * an object that happens to hold the same text elsewhere is serialized under the lock, as before. The object's
 * tree is not changed here; the commit sets its resourceVersion at the place the stand-in took.
 *
 * @param tree  what the bytes are of (for a deletion, a copy of the version it read)
 * @param basis for a deletion, the version {@code tree} copies: used only if that is still the newest at commit
 */
record Prestamped(ObjectNode tree, StoredObject basis, byte[] json, int at, int length) {

    /** Serializes {@code tree} with a stand-in resourceVersion; null when that cannot be done (rare, see above). */
    static Prestamped of(ObjectMapper mapper, ObjectNode tree, StoredObject basis) {
        JsonNode metadata = tree.get("metadata");
        if (metadata != null && !metadata.isObject()) {
            return null;
        }
        String token = "rv-" + Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
        // shallow copies: the same children, and the token where the commit puts the resourceVersion
        ObjectNode standIn = mapper.createObjectNode();
        standIn.setAll(tree);
        ObjectNode standInMetadata = mapper.createObjectNode();
        if (metadata != null) {
            standInMetadata.setAll((ObjectNode) metadata);
        }
        standInMetadata.put("resourceVersion", token);
        standIn.set("metadata", standInMetadata);
        byte[] json;
        try {
            json = mapper.writeValueAsBytes(standIn);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
        byte[] quoted = ('"' + token + '"').getBytes(StandardCharsets.US_ASCII);
        int at = onlyOccurrence(json, quoted);
        return at < 0 ? null : new Prestamped(tree, basis, json, at, quoted.length);
    }

    /** The bytes with {@code revision} as the resourceVersion. */
    byte[] at(long revision) {
        byte[] value = ('"' + Long.toString(revision) + '"').getBytes(StandardCharsets.US_ASCII);
        byte[] stamped = new byte[json.length - length + value.length];
        System.arraycopy(json, 0, stamped, 0, at);
        System.arraycopy(value, 0, stamped, at, value.length);
        System.arraycopy(json, at + length, stamped, at + value.length, json.length - at - length);
        return stamped;
    }

    /** Where {@code pattern} starts in {@code bytes} if it occurs there exactly once, else -1. */
    private static int onlyOccurrence(byte[] bytes, byte[] pattern) {
        int found = -1;
        byte first = pattern[0];
        for (int i = 0, last = bytes.length - pattern.length; i <= last; i++) {
            if (bytes[i] == first && matchesAt(bytes, i, pattern)) {
                if (found >= 0) {
                    return -1;
                }
                found = i;
            }
        }
        return found;
    }

    private static boolean matchesAt(byte[] bytes, int offset, byte[] pattern) {
        for (int j = 1; j < pattern.length; j++) {
            if (bytes[offset + j] != pattern[j]) {
                return false;
            }
        }
        return true;
    }
}
