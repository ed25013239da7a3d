package io.watchgate.api;

import java.util.ArrayList;
import java.util.List;

/**
 * A resource API path taken apart as kube-apiserver's request info takes it: {@code /api/{version}} or
 * {@code /apis/{group}/{version}}, the legacy {@code watch/} segment if any, then
 * {@code [namespaces/{namespace}/]{plural}[/{name}[/{subresource}]]}, where {@code namespaces/{name}/status} and
 * {@code namespaces/{name}/finalize} are a namespace's own subresources.
 *
 * @param namespace    null for all namespaces and for cluster-scoped types
 * @param name         null for a collection
 * @param subresource  null for the object or collection itself
 * @param watchSegment whether the path carried the legacy {@code watch/} segment, which makes any GET a watch
 */
public record ApiPath(String group, String version, String namespace, String plural, String name, String subresource,
        boolean watchSegment) {

    private static final List<String> NAMESPACE_SUBRESOURCES = List.of("status", "finalize");

    /** The path's parts, or null when it names no resource (discovery paths, empty or extra segments). */
    public static ApiPath parse(String path) {
        List<String> segments = segments(path);
        if (segments == null) {
            return null;
        }
        String group;
        int next;
        if (segments.size() >= 2 && segments.get(0).equals("api")) {
            group = "";
            next = 1;
        } else if (segments.size() >= 3 && segments.get(0).equals("apis")) {
            group = segments.get(1);
            next = 2;
        } else {
            return null;
        }
        String version = segments.get(next);
        List<String> rest = segments.subList(next + 1, segments.size());
        boolean watchSegment = !rest.isEmpty() && rest.get(0).equals("watch");
        if (watchSegment) {
            rest = rest.subList(1, rest.size());
        }
        String namespace = null;
        if (rest.size() > 2 && rest.get(0).equals("namespaces") && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        if (rest.isEmpty() || rest.size() > 3) {
            return null;
        }
        return new ApiPath(group, version, namespace, rest.get(0), rest.size() > 1 ? rest.get(1) : null,
                rest.size() > 2 ? rest.get(2) : null, watchSegment);
    }

    /**
     * The path as a watch, with its variable parts as placeholders and always in the {@code watch/} form: what
     * request metrics tag a watch with, apart from lists and without a series per namespace.
     */
    String watchTemplate() {
        return (group.isEmpty() ? "/api/{version}" : "/apis/{group}/{version}") + "/watch"
                + (namespace == null ? "" : "/namespaces/{namespace}") + "/{plural}" + (name == null ? "" : "/{name}");
    }

    /** The segments between slashes (a leading or trailing one aside), or null when one is empty. */
    private static List<String> segments(String path) {
        if (path == null) {
            return null;
        }
        int start = 0;
        int end = path.length();
        while (start < end && path.charAt(start) == '/') {
            start++;
        }
        while (end > start && path.charAt(end - 1) == '/') {
            end--;
        }
        if (start == end) {
            return null;
        }
        List<String> segments = new ArrayList<>(8);
        int from = start;
        for (int i = start; i <= end; i++) {
            if (i == end || path.charAt(i) == '/') {
                if (i == from) {
                    return null;
                }
                segments.add(path.substring(from, i));
                from = i + 1;
            }
        }
        return segments;
    }
}
