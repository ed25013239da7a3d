package io.watchgate.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.http.HttpMethod;
import io.watchgate.api.ApiPath;
import org.junit.jupiter.api.Test;

/** The Kubernetes verbs writes are counted under. */
class WriteResultsTest {

    @Test
    void verbsFollowTheMethodAndADeleteWithoutANameIsOfTheCollection() {
        ApiPath collection = ApiPath.parse("/api/v1/namespaces/ns/configmaps");
        ApiPath object = ApiPath.parse("/api/v1/namespaces/ns/configmaps/a");
        assertEquals("create", WriteResults.verb(HttpMethod.POST, collection));
        assertEquals("update", WriteResults.verb(HttpMethod.PUT, object));
        assertEquals("patch", WriteResults.verb(HttpMethod.PATCH, object));
        assertEquals("delete", WriteResults.verb(HttpMethod.DELETE, object));
        assertEquals("deletecollection", WriteResults.verb(HttpMethod.DELETE, collection));
        assertNull(WriteResults.verb(HttpMethod.GET, object));
    }
}
