package io.watchgate.metrics;

import io.watchgate.request.RequestInfo;

/**
 * The path template a request's latency is tagged with ({@code http_server_requests{uri=...}}): the path with its
 * variable parts as placeholders, so that there is one series per shape of path, not one per namespace or object.
 * Watches are tagged in the {@code watch/} form, apart from lists. Paths of no shape the API serves get none (Quarkus
 * then tags a 404 {@code NOT_FOUND}); subresources other than {@code status} likewise, since they are not served.
 */
final class PathTemplates {

    private static final String[] TEMPLATES = new String[32];

    static {
        for (int key = 0; key < TEMPLATES.length; key++) {
            TEMPLATES[key] = template((key & 1) != 0, (key & 2) != 0, (key & 4) != 0, key >> 3);
        }
    }

    private PathTemplates() {
    }

    /** The request's template, or null when it has none (not below {@code /api} or {@code /apis}, or no shape). */
    static String of(RequestInfo info) {
        if (!info.resourceRequest()) {
            return discoveryTemplate(info);
        }
        int depth = info.parts().size();
        boolean watch = info.verb().equals(RequestInfo.WATCH);
        if (depth < 1 || depth > 3 || (depth == 3 && (watch || !info.subresource().equals("status")))
                || info.verb().equals(RequestInfo.PROXY)) {
            return null;
        }
        return TEMPLATES[(info.group().isEmpty() ? 0 : 1) | (info.namespaceScoped() ? 2 : 0) | (watch ? 4 : 0)
                | depth << 3];
    }

    private static String discoveryTemplate(RequestInfo info) {
        if (info.apiPrefix().equals("api") && !info.version().isEmpty()) {
            return "/api/{version}";
        } else if (info.apiPrefix().equals("apis") && !info.group().isEmpty()) {
            return info.version().isEmpty() ? "/apis/{group}" : "/apis/{group}/{version}";
        }
        return null; // /api and /apis themselves are RESTEasy's, and tagged by it
    }

    private static String template(boolean grouped, boolean namespaced, boolean watch, int depth) {
        if (depth < 1 || depth > 3) {
            return null;
        }
        return (grouped ? "/apis/{group}/{version}" : "/api/{version}") + (watch ? "/watch" : "")
                + (namespaced ? "/namespaces/{namespace}" : "") + "/{plural}" + (depth > 1 ? "/{name}" : "")
                + (depth > 2 ? "/status" : "");
    }
}
