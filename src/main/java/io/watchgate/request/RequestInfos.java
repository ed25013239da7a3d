package io.watchgate.request;

import io.vertx.ext.web.RoutingContext;

/**
 * Each request's {@link RequestInfo}, made the first time something asks for it (a route, a resource method) and
 * then kept with the request, so that a request is parsed once however many read it.
 */
public final class RequestInfos {

    private static final String KEY = RequestInfo.class.getName();

    private RequestInfos() {
    }

    public static RequestInfo of(RoutingContext context) {
        RequestInfo info = context.get(KEY);
        if (info == null) {
            String watch = QueryParameters.first(context, "watch");
            String fieldSelector = QueryParameters.first(context, "fieldSelector");
            info = RequestInfoParser.parse(context.request().method().name(), context.normalizedPath(), watch,
                    fieldSelector);
            context.put(KEY, info);
        }
        return info;
    }
}
