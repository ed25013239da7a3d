package io.watchgate.status;

import java.util.List;

/**
 * A request the API refuses, carrying everything its Kubernetes {@code Status} body needs. Thrown anywhere
 * below the HTTP layer and rendered there by one exception mapper. Whatever a request echoes into it, its Status
 * stays small: the message is cut to {@link #MAX_MESSAGE_BYTES}, the name to {@link #MAX_NAME_BYTES}, and it
 * carries at most {@link Causes#MAX} causes, each cut too (see {@link Cause}).
 */
public final class ApiException extends RuntimeException {

    /** The message's size at most, in the bytes of its JSON. */
    public static final int MAX_MESSAGE_BYTES = 8 * 1024;
    /** A name echoed in {@code details.name}: no valid name comes close. */
    static final int MAX_NAME_BYTES = 512;
    /** The causes an Invalid message lists one by one (all of them kept, up to {@link Causes#MAX}, in the details). */
    static final int CAUSES_IN_MESSAGE = 16;

    private final int code;
    private final String reason;
    private final Details details;
    private final Integer retryAfterSeconds;
    private final String continueToken;

    /**
     * @param kind for {@code details.kind}: the resource ("configmaps") or, for Invalid, the Kind
     */
    public record Details(String name, String group, String kind, List<Cause> causes) {
        public static final Details NONE = new Details(null, null, null, List.of());

        public Details {
            name = Clip.json(name, MAX_NAME_BYTES);
            group = Clip.json(group, MAX_NAME_BYTES);
            kind = Clip.json(kind, MAX_NAME_BYTES);
            causes = causes.size() <= Causes.MAX ? causes : List.copyOf(causes.subList(0, Causes.MAX));
        }
    }

    public ApiException(int code, String reason, String message, Details details, Integer retryAfterSeconds,
            String continueToken) {
        super(Clip.json(message, MAX_MESSAGE_BYTES), null, false, false);
        this.code = code;
        this.reason = reason;
        this.details = details;
        this.retryAfterSeconds = retryAfterSeconds;
        this.continueToken = continueToken;
    }

    public ApiException(int code, String reason, String message) {
        this(code, reason, message, Details.NONE, null, null);
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, "BadRequest", message);
    }

    /** 400 for a body that does not decode as its type: {@code ConfigMap in version "v1" cannot be handled as a ConfigMap: ...}. */
    public static ApiException undecodable(String kind, String version, String problem) {
        return badRequest(kind + " in version \"" + version + "\" cannot be handled as a " + kind + ": " + problem);
    }

    /** A path that names nothing served (no type, no subresource, no document): kube-apiserver's bare 404. */
    public static ApiException noSuchPath() {
        return new ApiException(404, "NotFound", "the server could not find the requested resource");
    }

    public static ApiException notFound(String group, String resource, String name) {
        return new ApiException(404, "NotFound", resource + " \"" + name + "\" not found",
                new Details(name, group, resource, List.of()), null, null);
    }

    public static ApiException alreadyExists(String group, String resource, String name) {
        return new ApiException(409, "AlreadyExists", resource + " \"" + name + "\" already exists",
                new Details(name, group, resource, List.of()), null, null);
    }

    public static ApiException conflict(String group, String resource, String name) {
        return new ApiException(409, "Conflict", "Operation cannot be fulfilled on " + resource + " \"" + name
                + "\": the object has been modified; please apply your changes to the latest version and try again",
                new Details(name, group, resource, List.of()), null, null);
    }

    public static ApiException conflict(String group, String resource, String name, String problem) {
        return new ApiException(409, "Conflict", "Operation cannot be fulfilled on " + resource + " \"" + name
                + "\": " + problem, new Details(name, group, resource, List.of()), null, null);
    }

    public static ApiException forbidden(String group, String resource, String name, String problem) {
        return new ApiException(403, "Forbidden", resource + " \"" + name + "\" is forbidden: " + problem,
                new Details(name, group, resource, List.of()), null, null);
    }

    /** 422: {@code ConfigMap "x" is invalid: metadata.name: Invalid value: ...}. */
    public static ApiException invalid(String group, String kind, String name, List<Cause> causes) {
        Causes bounded = new Causes();
        bounded.addAll(causes);
        return invalid(group, kind, name, bounded);
    }

    /**
     * 422 as above, from causes collected up to their bound: the message lists the first {@link #CAUSES_IN_MESSAGE}
     * and says how many more there were ({@code [a, b, and 12 more errors]}).
     */
    public static ApiException invalid(String group, String kind, String name, Causes causes) {
        List<Cause> kept = causes.kept();
        long total = kept.size() + causes.omitted();
        String rendered;
        if (total == 1 && kept.size() == 1) {
            rendered = kept.get(0).render();
        } else {
            StringBuilder list = new StringBuilder("[");
            int listed = 0;
            long bytes = 0;
            // the list stops at a count and at a size, so that the count of the rest is never cut off
            while (listed < Math.min(kept.size(), CAUSES_IN_MESSAGE) && bytes < MAX_MESSAGE_BYTES / 2) {
                String cause = kept.get(listed++).render();
                bytes += Clip.jsonBytes(cause) + 2;
                list.append(listed == 1 ? "" : ", ").append(cause);
            }
            long more = total - listed;
            rendered = list.append(more == 0 ? "" : ", and " + more + " more errors").append(']').toString();
        }
        String qualifiedKind = Clip.json(group == null || group.isEmpty() ? kind : kind + "." + group, MAX_NAME_BYTES);
        String shownName = Clip.json(name, MAX_NAME_BYTES);
        return new ApiException(422, "Invalid", qualifiedKind + " \"" + shownName + "\" is invalid: " + rendered,
                new Details(shownName, group, kind, kept), null, null);
    }

    public static ApiException expired(String message) {
        return new ApiException(410, "Expired", message);
    }

    public static ApiException expired(String message, String continueToken) {
        return new ApiException(410, "Expired", message, Details.NONE, null, continueToken);
    }

    public static ApiException tooLargeResourceVersion(long requested, long current) {
        return new ApiException(504, "Timeout", "Too large resource version: " + requested + ", current: " + current,
                new Details(null, null, null, List.of(new Cause("ResourceVersionTooLarge", "Too large resource version", null))),
                1, null);
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public Details details() {
        return details;
    }

    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public String continueToken() {
        return continueToken;
    }
}
