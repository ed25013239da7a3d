package io.watchgate.api;

import java.util.Arrays;
import java.util.List;

/**
 * A request path as the watch route reads it: {@code /api/{version}/...} or {@code /apis/{group}/{version}/...},
 * optionally behind the legacy {@code watch/} segment, naming a collection or (legacy form only) one object.
 *
 * @param namespace null for all namespaces and for cluster-scoped types
 * @param name      null for a collection
 * @param legacy    whether the path carried the {@code watch/} segment, which makes any GET a watch
 */
record WatchPath(String group, String version, String namespace, String plural, String name, boolean legacy) {

    /**
     * The path with its variable parts as placeholders, always in the {@code watch/} form: what request metrics
     * tag a watch with, apart from lists and without a series per namespace.
     */
    String template() {
        return (group.isEmpty() ? "/api/{version}" : "/apis/{group}/{version}") + "/watch"
                + (namespace == null ? "" : "/namespaces/{namespace}") + "/{plural}" + (name == null ? "" : "/{name}");
    }

    /** The path's parts, or null when it names nothing a watch can be served on. */
    static WatchPath parse(String path) {
        if (path == null) {
            return null;
        }
        List<String> segments = Arrays.asList(path.replaceAll("^/+|/+$", "").split("/", -1));
        String group;
        int rest;
        if (segments.size() >= 2 && segments.get(0).equals("api")) {
            group = "";
            rest = 1;
        } else if (segments.size() >= 3 && segments.get(0).equals("apis")) {
            group = segments.get(1);
            rest = 2;
        } else {
            return null;
        }
        String version = segments.get(rest);
        List<String> tail = segments.subList(rest + 1, segments.size());
        boolean legacy = !tail.isEmpty() && tail.get(0).equals("watch");
        if (legacy) {
            tail = tail.subList(1, tail.size());
        }
        if (tail.stream().anyMatch(String::isEmpty)) {
            return null;
        }
        return switch (tail.size()) {
            case 1 -> new WatchPath(group, version, null, tail.get(0), null, legacy);
            // "namespaces/{name}" is the namespace object itself, like any cluster-scoped object
            case 2 -> legacy ? new WatchPath(group, version, null, tail.get(0), tail.get(1), true) : null;
            case 3 -> tail.get(0).equals("namespaces")
                    ? new WatchPath(group, version, tail.get(1), tail.get(2), null, legacy) : null;
            case 4 -> legacy && tail.get(0).equals("namespaces")
                    ? new WatchPath(group, version, tail.get(1), tail.get(2), tail.get(3), true) : null;
            default -> null;
        };
    }
}
