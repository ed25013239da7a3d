package io.watchgate.request;

import io.netty.handler.codec.http.QueryStringDecoder;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Map;

/**
 * A request's query parameters as the resource API reads them (RESTEasy's {@code UriInfo}, Go's {@code url.Values}):
 * names compared exactly, the first value of a repeated one. Everything that decides on a parameter reads it here
 * or through the resource API, never through Vert.x's {@code getParam}, whose names ignore case: authorization must
 * see the {@code fieldSelector} the list will apply, not another spelling of it.
 */
public final class QueryParameters {

    private static final String KEY = QueryParameters.class.getName();

    private QueryParameters() {
    }

    /**
     * Whether the query names {@code name} in another case too ({@code FieldSelector}): readers that ignore case
     * (Vert.x) or key a parameter by its first spelling (RESTEasy) could then each take a different value.
     */
    public static boolean spelledOtherwise(RoutingContext context, String name) {
        String query = context.request().query();
        if (query == null || !query.toLowerCase(java.util.Locale.ROOT).contains(name.toLowerCase(java.util.Locale.ROOT))) {
            return false;
        }
        for (String given : parameters(context, query).keySet()) {
            if (given.equalsIgnoreCase(name) && !given.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The first value of the parameter named exactly {@code name}, decoded; null when there is none. */
    public static String first(RoutingContext context, String name) {
        String query = context.request().query();
        if (query == null || !query.contains(name)) {
            return null; // the common case, answered without decoding the query
        }
        List<String> values = parameters(context, query).get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /** Every value of the parameter named exactly {@code name}, decoded, in the order given. */
    public static List<String> all(RoutingContext context, String name) {
        String query = context.request().query();
        if (query == null || !query.contains(name)) {
            return List.of();
        }
        return parameters(context, query).getOrDefault(name, List.of());
    }

    private static Map<String, List<String>> parameters(RoutingContext context, String query) {
        Map<String, List<String>> parameters = context.get(KEY);
        if (parameters == null) {
            parameters = new QueryStringDecoder(query, false).parameters();
            context.put(KEY, parameters);
        }
        return parameters;
    }
}
