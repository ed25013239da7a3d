package io.watchgate.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.http.HttpMethod;
import io.watchgate.metrics.WriteResults.ApiPath;
import org.junit.jupiter.api.Test;

/** Write paths taken apart as kube-apiserver's request info takes them, and the verbs they are counted under. */
class WriteResultsTest {

    @Test
    void corePathsNameTheirResourceNamespaceObjectAndSubresource() {
        assertEquals(new ApiPath("", "v1", "configmaps", null, null),
                ApiPath.parse("/api/v1/namespaces/default/configmaps"));
        assertEquals(new ApiPath("", "v1", "configmaps", "a", "status"),
                ApiPath.parse("/api/v1/namespaces/default/configmaps/a/status"));
        assertEquals(new ApiPath("", "v1", "nodes", "n1", null), ApiPath.parse("/api/v1/nodes/n1/"));
    }

    @Test
    void aNamespaceIsAnObjectWithStatusAndFinalizeAsItsSubresources() {
        assertEquals(new ApiPath("", "v1", "namespaces", "team", null), ApiPath.parse("/api/v1/namespaces/team"));
        assertEquals(new ApiPath("", "v1", "namespaces", "team", "status"),
                ApiPath.parse("/api/v1/namespaces/team/status"));
        assertEquals(new ApiPath("", "v1", "namespaces", "team", "finalize"),
                ApiPath.parse("/api/v1/namespaces/team/finalize"));
        assertEquals(new ApiPath("", "v1", "namespaces", null, null), ApiPath.parse("/api/v1/namespaces"));
    }

    @Test
    void groupedPathsCarryTheirGroup() {
        assertEquals(new ApiPath("example.com", "v1", "widgets", "w", null),
                ApiPath.parse("/apis/example.com/v1/namespaces/ns/widgets/w"));
        assertEquals(new ApiPath("apiextensions.k8s.io", "v1", "customresourcedefinitions", null, null),
                ApiPath.parse("/apis/apiextensions.k8s.io/v1/customresourcedefinitions"));
    }

    @Test
    void pathsThatNameNoResourceHaveNone() {
        assertNull(ApiPath.parse("/api/v1").plural());
        assertNull(ApiPath.parse("/apis/example.com").plural());
        assertNull(ApiPath.parse("/api/v1/namespaces/ns/configmaps/a/b/c").plural());
    }

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
