package io.watchgate.watch.http;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.watchgate.request.QueryFlags;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestInfoParser;
import io.watchgate.request.Target;
import io.watchgate.status.ApiException;
import io.watchgate.watch.WatchSpec;
import io.watchgate.watch.WireFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the watches a stream asks for: each {@code watch} parameter is the URL of a collection of the resource API
 * with its own query, read as that single watch would be, so that a watch means the same alone or in a stream. A bad
 * one refuses the whole stream, with its URL in the message: a client learns at once rather than from an event.
 */
final class StreamRequests {

    /** A watch of a stream as its single request would be: what authorization sees, and what it asks for. */
    record Asked(String url, RequestInfo info, WatchSpec spec) {
    }

    private StreamRequests() {
    }

    /** Checks the stream's watch parameters as a whole: how many, and each given once. */
    static void checkAll(List<String> urls, int minWatches, int maxWatches) {
        if (urls.size() < minWatches) {
            throw ApiException.badRequest("a stream needs one watch parameter or more, each the URL of a collection: "
                    + "/streams?watch=/api/v1/namespaces/default/configmaps");
        }
        if (urls.size() > maxWatches) {
            throw ApiException.badRequest("a stream carries at most " + maxWatches + " watches; this one asks for "
                    + urls.size());
        }
        Set<String> seen = new HashSet<>();
        for (String url : urls) {
            if (!seen.add(url)) {
                throw ApiException.badRequest("watch \"" + shown(url) + "\" is given twice: the events of a stream "
                        + "name their watch by its URL, which must tell each one apart");
            }
        }
    }

    /**
     * @param lastEventId the stream's {@code Last-Event-ID}: every watch resumes after it
     */
    static Asked parse(String url, WatchSpecs specs, String lastEventId) {
        try {
            return read(url, specs, lastEventId);
        } catch (IllegalArgumentException e) { // Netty's and the path parser's word for a bad percent-encoding
            throw ApiException.badRequest("watch \"" + shown(url) + "\": its percent-encoding does not decode");
        } catch (ApiException e) {
            throw new ApiException(e.code(), e.reason(), "watch \"" + shown(url) + "\": " + e.getMessage(),
                    e.details(), e.retryAfterSeconds(), null);
        }
    }

    private static Asked read(String url, WatchSpecs specs, String lastEventId) {
        if (!(url.startsWith("/api/") || url.startsWith("/apis/")) || url.indexOf('#') >= 0) {
            throw ApiException.badRequest("not the path of a collection of the resource API (/api/... or "
                    + "/apis/...), with its query after ?");
        }
        QueryStringDecoder decoder = new QueryStringDecoder(url);
        String path = decoder.rawPath();
        if (path.contains("/../") || path.endsWith("/..") || path.contains("/./") || path.endsWith("/.")) {
            throw ApiException.badRequest("the path has a . or .. segment");
        }
        Map<String, List<String>> query = decoder.parameters();
        String watch = first(query, "watch");
        if (watch != null && !watch.isEmpty() && !QueryFlags.bool("watch", watch)) {
            throw ApiException.badRequest("watch=false: each watch of a stream is a watch");
        }
        if (query.containsKey("timeoutSeconds")) {
            throw ApiException.badRequest("timeoutSeconds belongs to the stream (/streams?timeoutSeconds=...), "
                    + "which ends all its watches at once");
        }
        RequestInfo info = RequestInfoParser.parse("GET", path, "true", first(query, "fieldSelector"));
        if (!info.resourceRequest() || !RequestInfo.WATCH.equals(info.verb()) || info.namesObject()
                || info.parts().size() != 1) {
            throw ApiException.badRequest("not the path of a collection of the resource API");
        }
        Target target = specs.target(info);
        WatchMediaTypes.Negotiated negotiated = WatchMediaTypes.negotiate("text/event-stream", false,
                first(query, "as"));
        WatchSpec spec = specs.spec(info, target, name -> first(query, name), WireFormat.SERVER_SENT_EVENTS,
                negotiated.tableVersion(), lastEventId);
        return new Asked(url, info, spec);
    }

    private static String first(Map<String, List<String>> query, String name) {
        List<String> values = query.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** A URL as an error message shows it: not all of a very long one. */
    static String shown(String url) {
        return url.length() > 200 ? url.substring(0, 200) + "..." : url;
    }
}
