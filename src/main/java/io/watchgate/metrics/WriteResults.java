package io.watchgate.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.watchgate.api.ResourceApi;
import io.watchgate.schema.ResourceType;
import io.watchgate.schema.ResourceTypes;
import jakarta.inject.Singleton;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

/**
 * Writes by Kubernetes verb, resource and HTTP code, as kube-apiserver's {@code apiserver_request_total} counts
 * them: {@code watchgate_writes_total{verb="create",resource="configmaps",subresource="",code="201"}}. Rejected
 * writes count too, under the code they got. A path naming no served type counts under resource {@code unknown},
 * so that the series stay as few as the types.
 */
@Singleton
public class WriteResults {

    static final String UNKNOWN = "unknown";

    private final MeterRegistry registry;
    private final ResourceTypes types;

    WriteResults(MeterRegistry registry, ResourceTypes types) {
        this.registry = registry;
        this.types = types;
    }

    @ServerResponseFilter
    void count(ContainerRequestContext request, ContainerResponseContext response, SimpleResourceInfo resource,
            UriInfo uri) {
        if (resource != null && resource.getResourceClass() == ResourceApi.class) {
            record(request.getMethod(), uri.getPathParameters(), resource.getMethodName().endsWith("Status"),
                    response.getStatus());
        }
    }

    /**
     * @param method the request's HTTP method
     * @param path the resource API's path parameters ({@code group}, {@code version}, {@code plural}, {@code name})
     * @param status whether the request was for the status subresource
     */
    void record(String method, MultivaluedMap<String, String> path, boolean status, int code) {
        String verb = verb(method, path.containsKey("name"));
        if (verb == null) {
            return;
        }
        Counter.builder("watchgate.writes")
                .tags("verb", verb, "resource", resource(path), "subresource", status ? "status" : "",
                        "code", Integer.toString(code))
                .description("writes by verb, resource and HTTP code").register(registry).increment();
    }

    private static String verb(String method, boolean named) {
        return switch (method) {
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> null;
        };
    }

    private String resource(MultivaluedMap<String, String> path) {
        String group = first(path.get("group"));
        String version = first(path.get("version"));
        String plural = first(path.get("plural"));
        if (version == null || plural == null) {
            return UNKNOWN;
        }
        return types.find(group == null ? "" : group, version, plural).map(ResourceType::resource).orElse(UNKNOWN);
    }

    private static String first(List<String> values) {
        return values == null || values.isEmpty() ? null : values.get(0);
    }
}
