package io.watchgate.api;

import io.watchgate.discovery.Discovery;
import io.watchgate.status.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Discovery over HTTP: negotiation between aggregated discovery and the legacy documents. */
@ApplicationScoped
public class DiscoveryResponses {

    private static final String AGGREGATED_GROUP = "apidiscovery.k8s.io";
    private static final String AGGREGATED_KIND = "APIGroupDiscoveryList";

    private final Discovery discovery;

    DiscoveryResponses(Discovery discovery) {
        this.discovery = discovery;
    }

    Response version() {
        return json(discovery.version().toString());
    }

    /** {@code /api} or {@code /apis}: aggregated discovery when the client asks for it (kubectl does, first). */
    Response root(boolean core, HttpHeaders headers) {
        String aggregated = aggregatedVersion(headers.getHeaderString(HttpHeaders.ACCEPT));
        if (aggregated != null) {
            return Response.ok(discovery.aggregated(core, aggregated).toString())
                    .type("application/json;g=" + AGGREGATED_GROUP + ";v=" + aggregated + ";as=" + AGGREGATED_KIND)
                    .header("Vary", "Accept")
                    .build();
        }
        MediaTypes.requireJsonAcceptable(headers);
        return json((core ? discovery.coreVersions() : discovery.groupList()).toString());
    }

    Response group(String name, HttpHeaders headers) {
        MediaTypes.requireJsonAcceptable(headers);
        return json(discovery.group(name).orElseThrow(DiscoveryResponses::notFound).toString());
    }

    Response resourceList(String group, String version, HttpHeaders headers) {
        MediaTypes.requireJsonAcceptable(headers);
        return json(discovery.resourceList(group, version).orElseThrow(DiscoveryResponses::notFound).toString());
    }

    /** The aggregated discovery version the Accept header asks for first, or null for legacy discovery. */
    static String aggregatedVersion(String accept) {
        if (accept == null) {
            return null;
        }
        for (MediaRange range : MediaRange.parse(accept)) {
            if (!range.type().equals("application/json")) {
                continue;
            }
            if (AGGREGATED_GROUP.equals(range.group()) && AGGREGATED_KIND.equals(range.as())
                    && Discovery.AGGREGATED_VERSIONS.contains(range.version())) {
                return range.version();
            }
            if (range.group() == null && range.as() == null) {
                return null; // plain JSON comes first
            }
        }
        return null;
    }

    private static Response json(String body) {
        return Response.ok(body, MediaType.APPLICATION_JSON_TYPE).build();
    }

    private static ApiException notFound() {
        return ApiException.noSuchPath();
    }
}
