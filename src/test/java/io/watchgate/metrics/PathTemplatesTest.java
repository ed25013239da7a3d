package io.watchgate.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.watchgate.request.RequestInfoParser;
import org.junit.jupiter.api.Test;

/** Request latencies are tagged by shape of path: a series per template, never one per namespace or object. */
class PathTemplatesTest {

    private static String template(String method, String path, String watch) {
        return PathTemplates.of(RequestInfoParser.parse(method, path, watch, null));
    }

    @Test
    void collectionsObjectsAndStatusAsRestEasyTemplatedThem() {
        assertEquals("/api/{version}/namespaces/{namespace}/{plural}",
                template("GET", "/api/v1/namespaces/ns/configmaps", null));
        assertEquals("/api/{version}/{plural}", template("POST", "/api/v1/namespaces", null));
        assertEquals("/api/{version}/{plural}/{name}", template("GET", "/api/v1/namespaces/ns", null));
        assertEquals("/apis/{group}/{version}/namespaces/{namespace}/{plural}/{name}/status",
                template("PUT", "/apis/example.com/v1/namespaces/ns/widgets/w/status", null));
        assertEquals("/apis/{group}/{version}/{plural}/{name}", template("DELETE", "/apis/example.com/v1/things/t", null));
    }

    @Test
    void watchesAreTaggedApartInTheWatchForm() {
        assertEquals("/api/{version}/watch/namespaces/{namespace}/{plural}",
                template("GET", "/api/v1/namespaces/ns/configmaps", "true"));
        assertEquals("/api/{version}/watch/namespaces/{namespace}/{plural}/{name}",
                template("GET", "/api/v1/watch/namespaces/ns/configmaps/a", null));
    }

    @Test
    void discoveryDocumentsBelowAPrefix() {
        assertEquals("/api/{version}", template("GET", "/api/v1", null));
        assertEquals("/apis/{group}", template("GET", "/apis/example.com", null));
        assertEquals("/apis/{group}/{version}", template("GET", "/apis/example.com/v1", null));
    }

    @Test
    void pathsOfNoServedShapeHaveNone() {
        assertNull(template("GET", "/api/v1/namespaces/ns/configmaps/a/b/c", null));
        assertNull(template("GET", "/api/v1/nodes/n/proxy", null), "no subresource but status is served");
        assertNull(template("GET", "/api/v1/namespaces//configmaps", null));
        assertNull(template("GET", "/api/v1/watch", null));
        assertNull(template("GET", "/version", null));
    }
}
