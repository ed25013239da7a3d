package io.watchgate.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.http.HttpMethod;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestInfoParser;
import org.junit.jupiter.api.Test;

/** The Kubernetes verbs writes are counted under. */
class WriteCountingRouteTest {

    private static RequestInfo parse(HttpMethod method, String path) {
        return RequestInfoParser.parse(method.name(), path, null, null);
    }

    @Test
    void verbsFollowTheMethodAndADeleteWithoutANameIsOfTheCollection() {
        String collection = "/api/v1/namespaces/ns/configmaps";
        String object = "/api/v1/namespaces/ns/configmaps/a";
        assertEquals("create", WriteCountingRoute.verb(HttpMethod.POST, parse(HttpMethod.POST, collection)));
        assertEquals("update", WriteCountingRoute.verb(HttpMethod.PUT, parse(HttpMethod.PUT, object)));
        assertEquals("patch", WriteCountingRoute.verb(HttpMethod.PATCH, parse(HttpMethod.PATCH, object)));
        assertEquals("delete", WriteCountingRoute.verb(HttpMethod.DELETE, parse(HttpMethod.DELETE, object)));
        assertEquals("deletecollection",
                WriteCountingRoute.verb(HttpMethod.DELETE, parse(HttpMethod.DELETE, collection)));
        assertNull(WriteCountingRoute.verb(HttpMethod.GET, parse(HttpMethod.GET, object)));
    }

    @Test
    void aWriteUnderTheLegacyWatchSegmentCountsByItsMethod() {
        assertEquals("create", WriteCountingRoute.verb(HttpMethod.POST,
                parse(HttpMethod.POST, "/api/v1/watch/namespaces/ns/configmaps")));
    }

    @Test
    void aDeleteOfAPathNamingNothingCountsAsOfACollection() {
        assertEquals("deletecollection", WriteCountingRoute.verb(HttpMethod.DELETE,
                parse(HttpMethod.DELETE, "/api/v1/namespaces/ns/configmaps/a/b/c")));
        assertEquals("deletecollection", WriteCountingRoute.verb(HttpMethod.DELETE, parse(HttpMethod.DELETE, "/api/v1")));
    }
}
