package io.watchgate.request;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Reads a {@link RequestInfo} from a request's method, path and {@code watch} parameter, by kube-apiserver's rules:
 * <ul>
 * <li>{@code /api/{version}/...} (the core group) and {@code /apis/{group}/{version}/...} are resource requests;
 * everything else, the discovery documents at {@code /api/{version}} and {@code /apis/{group}[/{version}]}
 * included, is not;</li>
 * <li>a {@code watch} (or {@code proxy}) segment after the version is the verb; otherwise the method gives it, and a
 * GET naming no object is a list, or a watch when the {@code watch} parameter is set to anything but false;</li>
 * <li>{@code namespaces/{namespace}/{resource}...} confines the resource to the namespace, except
 * {@code namespaces/{name}/status} and {@code /finalize}, a namespace's own subresources;</li>
 * <li>a list or watch whose field selector requires one {@code metadata.name} has that name (its path still names
 * no object: {@link RequestInfo#namesObject()});</li>
 * <li>a DELETE naming no object is a deletecollection.</li>
 * </ul>
 * Where it differs, deliberately: a path with an empty segment ({@code //}) or more than {@link #MAX_SEGMENTS}
 * segments is read as no resource request (nothing the API serves has either); segments are percent-decoded one by
 * one, so that {@code %2F} stays inside its segment; {@code watch=f} is false here, as the API's own boolean
 * parameters read it.
 *
 * <p>It runs on every request: one pass over the path, no regular expressions; it allocates the segments it keeps,
 * a small array of their bounds, and the record (some 460 bytes in all, see docs/benchmarks.md).
 */
public final class RequestInfoParser {

    /** Twice the most segments a served path has ({@code /apis/g/v/watch/namespaces/n/r/name/subresource}). */
    static final int MAX_SEGMENTS = 18;

    private RequestInfoParser() {
    }

    /**
     * @param method        the HTTP method, upper case as sent
     * @param path          the normalized path, not yet percent-decoded
     * @param watch         the first {@code watch} query parameter, or null
     * @param fieldSelector the first {@code fieldSelector} query parameter, or null
     */
    public static RequestInfo parse(String method, String path, String watch, String fieldSelector) {
        String lowerMethod = lowerCase(method);
        if (path == null) {
            path = "";
        }
        int[] bounds = new int[2 * MAX_SEGMENTS];
        int count = split(path, bounds);
        if (count < 2 || !(is(path, bounds, 0, "api") || is(path, bounds, 0, "apis"))) {
            return nonResource(lowerMethod, path, count < 1 ? "" : prefixOf(path, bounds), "", "");
        }
        boolean grouped = is(path, bounds, 0, "apis");
        String prefix = grouped ? "apis" : "api";
        if (count < (grouped ? 4 : 3)) { // a discovery document
            String group = grouped ? segment(path, bounds, 1) : "";
            String version = grouped ? (count > 2 ? segment(path, bounds, 2) : "") : segment(path, bounds, 1);
            return nonResource(lowerMethod, path, prefix, group, version);
        }
        String group = grouped ? segment(path, bounds, 1) : "";
        int next = grouped ? 2 : 1;
        String version = segment(path, bounds, next++);

        String verb;
        if (is(path, bounds, next, RequestInfo.WATCH) || is(path, bounds, next, RequestInfo.PROXY)) {
            if (count - next < 2) { // kube-apiserver: "unable to determine kind and namespace"
                return new RequestInfo(true, lowerMethod, path, prefix, group, version, "", false, "", "", "",
                        List.of());
            }
            verb = is(path, bounds, next, RequestInfo.WATCH) ? RequestInfo.WATCH : RequestInfo.PROXY;
            next++;
        } else {
            verb = verbOf(method);
        }

        String namespace = "";
        boolean namespaceScoped = false;
        if (is(path, bounds, next, "namespaces")) {
            // a server-side apply creating a namespace: it is in no namespace yet
            boolean namespaceApply = count - next == 2 && verb.equals(RequestInfo.PATCH);
            if (!namespaceApply && count - next > 1) {
                namespace = segment(path, bounds, next + 1);
                boolean ownSubresource = count - next > 2
                        && (is(path, bounds, next + 2, "status") || is(path, bounds, next + 2, "finalize"));
                if (count - next > 2 && !ownSubresource) {
                    next += 2;
                    namespaceScoped = true;
                }
            }
        }

        String[] parts = new String[count - next];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = segment(path, bounds, next + i);
        }
        String resource = parts.length > 0 ? parts[0] : "";
        String name = parts.length > 1 ? parts[1] : "";
        String subresource = parts.length > 2 && !verb.equals(RequestInfo.PROXY) ? parts[2] : "";
        if (name.isEmpty() && verb.equals(RequestInfo.GET)) {
            verb = watches(watch) ? RequestInfo.WATCH : RequestInfo.LIST;
            name = FieldSelectorName.of(fieldSelector);
        } else if (name.isEmpty() && verb.equals(RequestInfo.DELETE)) {
            verb = RequestInfo.DELETE_COLLECTION;
        }
        return new RequestInfo(true, verb, path, prefix, group, version, namespace, namespaceScoped, resource,
                subresource, name, Collections.unmodifiableList(Arrays.asList(parts)));
    }

    /**
     * Whether a list asks to be a watch: kube-apiserver takes any value but false ({@code false} in any case,
     * {@code 0}, empty) as true. The values Go's strconv.ParseBool reads as false are false here too, as the API reads
     * its boolean parameters; a value that is no boolean at all is a watch, which the watch route then refuses.
     */
    static boolean watches(String watch) {
        if (watch == null || watch.isEmpty()) {
            return false;
        }
        return switch (watch) {
            case "0", "f", "F" -> false;
            default -> !watch.equalsIgnoreCase("false");
        };
    }

    private static String verbOf(String method) {
        return switch (method) {
            case "POST" -> RequestInfo.CREATE;
            case "GET", "HEAD" -> RequestInfo.GET;
            case "PUT" -> RequestInfo.UPDATE;
            case "PATCH" -> RequestInfo.PATCH;
            case "DELETE" -> RequestInfo.DELETE;
            default -> "";
        };
    }

    private static String lowerCase(String method) {
        return switch (method) {
            case "GET" -> "get";
            case "HEAD" -> "head";
            case "POST" -> "post";
            case "PUT" -> "put";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            case "OPTIONS" -> "options";
            default -> method.toLowerCase(java.util.Locale.ROOT);
        };
    }

    private static RequestInfo nonResource(String verb, String path, String prefix, String group, String version) {
        return new RequestInfo(false, verb, path, prefix, group, version, "", false, "", "", "", List.of());
    }

    /** {@code api} or {@code apis} when the path starts with one, else empty. */
    private static String prefixOf(String path, int[] bounds) {
        return is(path, bounds, 0, "api") ? "api" : is(path, bounds, 0, "apis") ? "apis" : "";
    }

    /**
     * Marks the segments between slashes (leading and trailing ones aside) in {@code bounds}, as start and end
     * pairs, and answers how many there are: 0 for none, -1 when one is empty or they are too many.
     */
    static int split(String path, int[] bounds) {
        int start = 0;
        int end = path.length();
        while (start < end && path.charAt(start) == '/') {
            start++;
        }
        while (end > start && path.charAt(end - 1) == '/') {
            end--;
        }
        if (start == end) {
            return 0;
        }
        int count = 0;
        int from = start;
        for (int i = start; i <= end; i++) {
            if (i == end || path.charAt(i) == '/') {
                if (i == from || count == bounds.length / 2) {
                    return -1;
                }
                bounds[2 * count] = from;
                bounds[2 * count + 1] = i;
                count++;
                from = i + 1;
            }
        }
        return count;
    }

    private static boolean is(String path, int[] bounds, int index, String literal) {
        int from = bounds[2 * index];
        int length = bounds[2 * index + 1] - from;
        return length == literal.length() && path.startsWith(literal, from);
    }

    /** A segment, percent-decoded as UTF-8 (as is when its escapes are malformed, which then name nothing). */
    private static String segment(String path, int[] bounds, int index) {
        int from = bounds[2 * index];
        int to = bounds[2 * index + 1];
        String raw = path.substring(from, to);
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        try {
            return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8); // a + in a path is a +
        } catch (IllegalArgumentException e) {
            return raw;
        }
    }
}
