package io.watchgate.request;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Requests read as kube-apiserver's request info reads them. The first tables are kube-apiserver's own
 * (k8s.io/apiserver/pkg/endpoints/request/requestinfo_test.go); the tests after them are watchgate's additions.
 */
class RequestInfoParserTest {

    /** One row of kube-apiserver's table: the request and what it reads as. */
    private record Row(String method, String url, String verb, String prefix, String group, String version,
            String namespace, String resource, String subresource, String name, List<String> parts) {
    }

    private static Row row(String method, String url, String verb, String prefix, String group, String version,
            String namespace, String resource, String subresource, String name, String... parts) {
        return new Row(method, url, verb, prefix, group, version, namespace, resource, subresource, name,
                List.of(parts));
    }

    /** Parses a URL as the router hands it over: its path, and the first {@code watch} and {@code fieldSelector}. */
    static RequestInfo parse(String method, String url) {
        int query = url.indexOf('?');
        String path = query < 0 ? url : url.substring(0, query);
        String watch = null;
        String fieldSelector = null;
        if (query >= 0) {
            for (String parameter : url.substring(query + 1).split("&")) {
                if (parameter.startsWith("watch=") && watch == null) {
                    watch = parameter.substring("watch=".length());
                } else if (parameter.startsWith("fieldSelector=") && fieldSelector == null) {
                    fieldSelector = parameter.substring("fieldSelector=".length());
                }
            }
        }
        return RequestInfoParser.parse(method, path, watch, fieldSelector);
    }

    private static final List<Row> RESOURCE_REQUESTS = List.of(
            // resource paths
            row("GET", "/api/v1/namespaces", "list", "api", "", "v1", "", "namespaces", "", "", "namespaces"),
            row("GET", "/api/v1/namespaces/other", "get", "api", "", "v1", "other", "namespaces", "", "other",
                    "namespaces", "other"),
            row("GET", "/api/v1/namespaces/other/pods", "list", "api", "", "v1", "other", "pods", "", "", "pods"),
            row("GET", "/api/v1/namespaces/other/pods/foo", "get", "api", "", "v1", "other", "pods", "", "foo",
                    "pods", "foo"),
            row("HEAD", "/api/v1/namespaces/other/pods/foo", "get", "api", "", "v1", "other", "pods", "", "foo",
                    "pods", "foo"),
            row("GET", "/api/v1/pods", "list", "api", "", "v1", "", "pods", "", "", "pods"),
            row("HEAD", "/api/v1/pods", "list", "api", "", "v1", "", "pods", "", "", "pods"),
            // server-side apply of a new namespace: no namespace of its own yet
            row("PATCH", "/api/v1/namespaces/new-namespace", "patch", "api", "", "v1", "", "namespaces", "",
                    "new-namespace", "namespaces", "new-namespace"),
            // special verbs
            row("GET", "/api/v1/proxy/namespaces/other/pods/foo", "proxy", "api", "", "v1", "other", "pods", "", "foo",
                    "pods", "foo"),
            row("GET", "/api/v1/proxy/namespaces/other/pods/foo/subpath/not/a/subresource", "proxy", "api", "", "v1",
                    "other", "pods", "", "foo", "pods", "foo", "subpath", "not", "a", "subresource"),
            row("GET", "/api/v1/watch/pods", "watch", "api", "", "v1", "", "pods", "", "", "pods"),
            row("GET", "/api/v1/pods?watch=true", "watch", "api", "", "v1", "", "pods", "", "", "pods"),
            row("GET", "/api/v1/pods?watch=false", "list", "api", "", "v1", "", "pods", "", "", "pods"),
            row("GET", "/api/v1/watch/namespaces/other/pods", "watch", "api", "", "v1", "other", "pods", "", "",
                    "pods"),
            row("GET", "/api/v1/namespaces/other/pods?watch=1", "watch", "api", "", "v1", "other", "pods", "", "",
                    "pods"),
            row("GET", "/api/v1/namespaces/other/pods?watch=0", "list", "api", "", "v1", "other", "pods", "", "",
                    "pods"),
            // subresource identification
            row("GET", "/api/v1/namespaces/other/pods/foo/status", "get", "api", "", "v1", "other", "pods", "status",
                    "foo", "pods", "foo", "status"),
            row("GET", "/api/v1/namespaces/other/pods/foo/proxy/subpath", "get", "api", "", "v1", "other", "pods",
                    "proxy", "foo", "pods", "foo", "proxy", "subpath"),
            row("PUT", "/api/v1/namespaces/other/finalize", "update", "api", "", "v1", "other", "namespaces",
                    "finalize", "other", "namespaces", "other", "finalize"),
            row("PUT", "/api/v1/namespaces/other/status", "update", "api", "", "v1", "other", "namespaces", "status",
                    "other", "namespaces", "other", "status"),
            // verb identification
            row("PATCH", "/api/v1/namespaces/other/pods/foo", "patch", "api", "", "v1", "other", "pods", "", "foo",
                    "pods", "foo"),
            row("DELETE", "/api/v1/namespaces/other/pods/foo", "delete", "api", "", "v1", "other", "pods", "", "foo",
                    "pods", "foo"),
            row("POST", "/api/v1/namespaces/other/pods", "create", "api", "", "v1", "other", "pods", "", "", "pods"),
            // deletecollection verb identification
            row("DELETE", "/api/v1/nodes", "deletecollection", "api", "", "v1", "", "nodes", "", "", "nodes"),
            row("DELETE", "/api/v1/namespaces", "deletecollection", "api", "", "v1", "", "namespaces", "", "",
                    "namespaces"),
            row("DELETE", "/api/v1/namespaces/other/pods", "deletecollection", "api", "", "v1", "other", "pods", "",
                    "", "pods"),
            row("DELETE", "/apis/extensions/v1/namespaces/other/pods", "deletecollection", "apis", "extensions", "v1",
                    "other", "pods", "", "", "pods"),
            // api group identification
            row("POST", "/apis/extensions/v1/namespaces/other/pods", "create", "apis", "extensions", "v1", "other",
                    "pods", "", "", "pods"),
            // api version identification
            row("POST", "/apis/extensions/v1beta3/namespaces/other/pods", "create", "apis", "extensions", "v1beta3",
                    "other", "pods", "", "", "pods"));

    @Test
    void kubeApiserversResourceRequestsReadAsItReadsThem() {
        for (Row row : RESOURCE_REQUESTS) {
            RequestInfo info = parse(row.method(), row.url());
            String request = row.method() + " " + row.url();
            assertAll(request,
                    () -> assertTrue(info.resourceRequest(), request),
                    () -> assertEquals(row.verb(), info.verb(), "verb"),
                    () -> assertEquals(row.prefix(), info.apiPrefix(), "prefix"),
                    () -> assertEquals(row.group(), info.group(), "group"),
                    () -> assertEquals(row.version(), info.version(), "version"),
                    () -> assertEquals(row.namespace(), info.namespace(), "namespace"),
                    () -> assertEquals(row.resource(), info.resource(), "resource"),
                    () -> assertEquals(row.subresource(), info.subresource(), "subresource"),
                    () -> assertEquals(row.name(), info.name(), "name"),
                    () -> assertEquals(row.parts(), info.parts(), "parts"));
        }
    }

    @Test
    void kubeApiserversNonResourceRequestsAreNone() {
        for (String path : List.of("/", "/api/version/", "/apis/group/version/", "/badprefix/version/resource",
                "/apis/version/resource", "/not-api/version/resource", "/apis/extensions/v1beta1",
                "/apis/extensions/v1beta1/", "/api/version", "/api", "")) {
            assertFalse(parse("GET", path).resourceRequest(), path);
        }
        for (String path : List.of("/api/version/resource", "/apis/group/version/resource/name/subresource",
                "/api/version/resource/name/subresource", "/apis/batch/v1/job", "/apis/batch/v1/job/foo",
                "/apis/batch/v1/job/foo/scale")) {
            assertTrue(parse("GET", path).resourceRequest(), path);
        }
    }

    @Test
    void kubeApiserversFieldSelectorsNameTheObjectOfAListOrWatch() {
        String[][] cases = {
            // url, name, verb
            {"/apis/group/version/resource", "", "list"},
            {"/apis/group/version/resource?fieldSelector=metadata.name=name1", "name1", "list"},
            {"/apis/group/version/resource?watch=true&fieldSelector=metadata.name=name1", "name1", "watch"},
            {"/apis/group/version/resource?fieldSelector=foo=bar", "", "list"},
            {"/apis/group/version/resource?fieldSelector=metadata.name=name1,foo", "", "list"},
            {"/apis/group/version/resource?fieldSelector=metadata.name=name1,foo&watch=true", "", "watch"},
            {"/apis/group/version/resource?fieldSelector=metadata.name=name1,foo&watch=false", "", "list"},
        };
        for (String[] c : cases) {
            RequestInfo info = parse("GET", c[0]);
            assertEquals(List.of(c[1], c[2]), List.of(info.name(), info.verb()), c[0]);
        }
    }

    @Test
    void aFieldSelectorNameIsReadAsKubernetesParsesSelectors() {
        assertEquals("a", parse("GET", "/api/v1/pods?fieldSelector=spec.nodeName=n,metadata.name==a").name());
        assertEquals("", parse("GET", "/api/v1/pods?fieldSelector=metadata.name!=a").name());
        assertEquals("a,b", parse("GET", "/api/v1/pods?fieldSelector=metadata.name=a\\,b").name(), "escaped comma");
        assertEquals("", parse("GET", "/api/v1/pods?fieldSelector=metadata.name=a\\x").name(), "unknown escape");
        assertEquals("", parse("GET", "/api/v1/pods?fieldSelector=metadata.name=a=b").name(), "unescaped =");
        assertEquals("", parse("GET", "/api/v1/pods?fieldSelector=metadata.name=a/b").name(), "no path segment");
        assertEquals("", parse("GET", "/api/v1/pods?fieldSelector=metadata.name=..").name());
        assertEquals("a", parse("GET", "/api/v1/pods?fieldSelector=metadata.name=b,metadata.name=a").name(),
                "the first term in sorted order");
        RequestInfo selected = parse("GET", "/api/v1/namespaces/ns/pods?fieldSelector=metadata.name=a");
        assertFalse(selected.namesObject(), "the path names the collection still");
        assertEquals("", parse("DELETE", "/api/v1/pods?fieldSelector=metadata.name=a").name(), "lists and watches only");
        assertEquals("deletecollection", parse("DELETE", "/api/v1/pods?fieldSelector=metadata.name=a").verb());
    }

    @Test
    void aNonResourceRequestsVerbIsItsLowercasedMethod() {
        assertEquals("get", parse("GET", "/version").verb());
        assertEquals("options", parse("OPTIONS", "/openapi/v2").verb());
        assertEquals("propfind", parse("PROPFIND", "/").verb());
        assertEquals("/healthz", parse("GET", "/healthz").path());
    }

    @Test
    void aResourceRequestWithAMethodNoVerbHasHasNoVerb() {
        assertEquals("", parse("OPTIONS", "/api/v1/namespaces/ns/configmaps").verb());
    }

    @Test
    void theLegacyWatchSegmentMakesAnyGetAWatchAndKeepsTheName() {
        RequestInfo one = parse("GET", "/api/v1/watch/namespaces/ns/configmaps/a");
        assertEquals(List.of("watch", "ns", "configmaps", "a", true),
                List.of(one.verb(), one.namespace(), one.resource(), one.name(), one.namespaceScoped()));
        RequestInfo namespace = parse("GET", "/api/v1/watch/namespaces/ns");
        assertEquals(List.of("watch", "namespaces", "ns", false),
                List.of(namespace.verb(), namespace.resource(), namespace.name(), namespace.namespaceScoped()));
        RequestInfo nothing = parse("GET", "/api/v1/watch");
        assertTrue(nothing.resourceRequest(), "kube-apiserver fails to read it, with what it read so far");
        assertEquals(List.of(), nothing.parts());
    }

    @Test
    void aWatchParameterMakesOnlyAListAWatch() {
        assertEquals("get", parse("GET", "/api/v1/namespaces/ns/configmaps/a?watch=true").verb());
        for (String no : List.of("", "0", "f", "F", "false", "False", "FALSE", "fAlSe")) {
            assertEquals("list", parse("GET", "/api/v1/configmaps?watch=" + no).verb(), no);
        }
        for (String yes : List.of("1", "t", "true", "TRUE", "maybe")) {
            assertEquals("watch", parse("GET", "/api/v1/configmaps?watch=" + yes).verb(), yes);
        }
    }

    @Test
    void theNamespaceObjectIsNoScopeAndAResourceBelowANamespaceIs() {
        RequestInfo namespace = parse("GET", "/api/v1/namespaces/team");
        assertFalse(namespace.namespaceScoped());
        assertEquals(null, namespace.scopeNamespace());
        RequestInfo status = parse("PUT", "/api/v1/namespaces/team/status");
        assertFalse(status.namespaceScoped());
        RequestInfo inside = parse("GET", "/api/v1/namespaces/team/namespaces/team");
        assertTrue(inside.namespaceScoped(), "as a namespaced resource called namespaces would be");
        assertEquals("team", inside.scopeNamespace());
        RequestInfo grouped = parse("GET", "/apis/example.com/v1/namespaces/ns/widgets/w");
        assertEquals(List.of("example.com", "v1", "ns", "widgets", "w"),
                List.of(grouped.group(), grouped.version(), grouped.scopeNamespace(), grouped.resource(),
                        grouped.name()));
    }

    @Test
    void discoveryDocumentsAreNoResourceRequestsButNameTheirGroupAndVersion() {
        RequestInfo core = parse("GET", "/api/v1");
        assertEquals(List.of(false, "api", "", "v1"),
                List.of(core.resourceRequest(), core.apiPrefix(), core.group(), core.version()));
        RequestInfo group = parse("GET", "/apis/example.com");
        assertEquals(List.of(false, "apis", "example.com", ""),
                List.of(group.resourceRequest(), group.apiPrefix(), group.group(), group.version()));
        RequestInfo groupVersion = parse("GET", "/apis/example.com/v1/");
        assertEquals(List.of(false, "apis", "example.com", "v1"), List.of(groupVersion.resourceRequest(),
                groupVersion.apiPrefix(), groupVersion.group(), groupVersion.version()));
        assertEquals("", parse("GET", "/openapi/v2").apiPrefix());
    }

    @Test
    void leadingAndTrailingSlashesDoNotCount() {
        RequestInfo node = parse("GET", "/api/v1/nodes/n1/");
        assertEquals(List.of("nodes", "n1"), node.parts());
    }

    @Test
    void pathsWithAnEmptySegmentOrTooManyNameNothing() {
        assertFalse(parse("GET", "/api/v1/namespaces//configmaps").resourceRequest(), "an empty segment");
        String deepest = "/api/v1" + "/x".repeat(RequestInfoParser.MAX_SEGMENTS - 2);
        assertTrue(parse("GET", deepest).resourceRequest());
        assertFalse(parse("GET", deepest + "/x").resourceRequest());
        assertFalse(parse("GET", "/api/v1" + "/x".repeat(100_000)).resourceRequest());
    }

    @Test
    void segmentsArePercentDecodedEachOnItsOwn() {
        assertEquals("system:controller", parse("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/"
                + "system%3Acontroller").name());
        RequestInfo slash = parse("GET", "/api/v1/namespaces/ns/configmaps/a%2Fb");
        assertEquals(List.of("configmaps", "a/b"), slash.parts());
        assertEquals("a+b", parse("GET", "/api/v1/namespaces/ns/configmaps/a+b").name());
        assertEquals("caf\u00e9", parse("GET", "/api/v1/namespaces/ns/configmaps/caf%C3%A9").name());
        assertEquals("a%zz", parse("GET", "/api/v1/namespaces/ns/configmaps/a%zz").name(), "malformed: as sent");
    }
}
