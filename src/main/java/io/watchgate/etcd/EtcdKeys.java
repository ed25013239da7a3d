package io.watchgate.etcd;

import io.etcd.jetcd.ByteSequence;
import io.watchgate.store.ObjectKey;
import java.nio.charset.StandardCharsets;

/**
 * Where objects live in etcd: kube-apiserver's layout, {@code <prefix>/<resource>/<namespace>/<name>} for core
 * types and {@code <prefix>/<group>/<resource>/<namespace>/<name>} for the others (no namespace segment for a
 * cluster-scoped type). Groups have a dot and core resources none, which is how a key reads back.
 */
final class EtcdKeys {

    private final String prefix;
    private final ByteSequence range;
    private final ByteSequence marker;

    /** @param prefix without a trailing slash, as {@code /registry} */
    EtcdKeys(String prefix) {
        String trimmed = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        if (!trimmed.startsWith("/") || trimmed.length() < 2) {
            throw new IllegalArgumentException("an etcd key prefix starts with / and names something, as /registry: "
                    + prefix);
        }
        this.prefix = trimmed;
        this.range = bytes(trimmed + "/");
        this.marker = bytes(trimmed + "/watchgate.io/revision");
    }

    /**
     * The store's one key that is no object's ({@link RevisionSync}): two segments after the prefix, where a
     * grouped resource's keys have three or four.
     */
    ByteSequence marker() {
        return marker;
    }

    boolean isMarker(ByteSequence key) {
        return marker.equals(key);
    }

    /** Every key of the store: the prefix and a slash. */
    ByteSequence range() {
        return range;
    }

    ByteSequence of(ObjectKey key) {
        String resource = key.resource();
        int dot = resource.indexOf('.');
        StringBuilder path = new StringBuilder(prefix.length() + resource.length() + key.namespace().length()
                + key.name().length() + 4).append(prefix).append('/');
        if (dot < 0) {
            path.append(resource);
        } else {
            path.append(resource, dot + 1, resource.length()).append('/').append(resource, 0, dot);
        }
        if (!key.namespace().isEmpty()) {
            path.append('/').append(key.namespace());
        }
        return bytes(path.append('/').append(key.name()).toString());
    }

    /** The object key {@code key} stands for, or null when it is not one of the store's. */
    ObjectKey parse(ByteSequence key) {
        String path = key.toString(StandardCharsets.UTF_8);
        if (!path.startsWith(prefix) || path.length() <= prefix.length() + 1 || path.charAt(prefix.length()) != '/') {
            return null;
        }
        String[] parts = path.substring(prefix.length() + 1).split("/", -1);
        boolean grouped = parts[0].indexOf('.') >= 0;
        int first = grouped ? 2 : 1;
        if (parts.length < first + 1 || parts.length > first + 2) {
            return null;
        }
        for (String part : parts) {
            if (part.isEmpty()) {
                return null;
            }
        }
        String resource = grouped ? parts[1] + "." + parts[0] : parts[0];
        return parts.length == first + 2 ? new ObjectKey(resource, parts[first], parts[first + 1])
                : new ObjectKey(resource, "", parts[first]);
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }
}
