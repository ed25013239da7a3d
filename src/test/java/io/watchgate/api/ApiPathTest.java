package io.watchgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Resource API paths taken apart as kube-apiserver's request info takes them. */
class ApiPathTest {

    @Test
    void corePathsNameTheirNamespaceResourceObjectAndSubresource() {
        assertEquals(new ApiPath("", "v1", "default", "configmaps", null, null, false),
                ApiPath.parse("/api/v1/namespaces/default/configmaps"));
        assertEquals(new ApiPath("", "v1", "default", "configmaps", "a", "status", false),
                ApiPath.parse("/api/v1/namespaces/default/configmaps/a/status"));
        assertEquals(new ApiPath("", "v1", null, "nodes", "n1", null, false), ApiPath.parse("/api/v1/nodes/n1/"));
        assertEquals(new ApiPath("", "v1", null, "configmaps", null, null, false), ApiPath.parse("/api/v1/configmaps"));
    }

    @Test
    void aNamespaceIsAnObjectWithStatusAndFinalizeAsItsSubresources() {
        assertEquals(new ApiPath("", "v1", null, "namespaces", "team", null, false),
                ApiPath.parse("/api/v1/namespaces/team"));
        assertEquals(new ApiPath("", "v1", null, "namespaces", "team", "status", false),
                ApiPath.parse("/api/v1/namespaces/team/status"));
        assertEquals(new ApiPath("", "v1", null, "namespaces", "team", "finalize", false),
                ApiPath.parse("/api/v1/namespaces/team/finalize"));
        assertEquals(new ApiPath("", "v1", null, "namespaces", null, null, false), ApiPath.parse("/api/v1/namespaces"));
    }

    @Test
    void groupedPathsCarryTheirGroup() {
        assertEquals(new ApiPath("example.com", "v1", "ns", "widgets", "w", null, false),
                ApiPath.parse("/apis/example.com/v1/namespaces/ns/widgets/w"));
        assertEquals(new ApiPath("apiextensions.k8s.io", "v1", null, "customresourcedefinitions", null, null, false),
                ApiPath.parse("/apis/apiextensions.k8s.io/v1/customresourcedefinitions"));
    }

    @Test
    void theLegacyWatchSegmentComesBeforeTheRest() {
        assertEquals(new ApiPath("", "v1", "ns", "configmaps", "a", null, true),
                ApiPath.parse("/api/v1/watch/namespaces/ns/configmaps/a"));
        assertEquals(new ApiPath("", "v1", null, "namespaces", "ns", null, true),
                ApiPath.parse("/api/v1/watch/namespaces/ns"));
    }

    @Test
    void pathsThatNameNoResourceHaveNone() {
        assertNull(ApiPath.parse("/api/v1"));
        assertNull(ApiPath.parse("/apis/example.com"));
        assertNull(ApiPath.parse("/api/v1/namespaces/ns/configmaps/a/b/c"));
        assertNull(ApiPath.parse("/api/v1/namespaces//configmaps"), "an empty segment names nothing");
        assertNull(ApiPath.parse("/version"));
        assertNull(ApiPath.parse("/"));
    }
}
