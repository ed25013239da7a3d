package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.labelled;
import static io.watchgate.api.Api.newNamespace;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.watchgate.store.HistoryCompaction;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** list: selectors, ordering, pagination and the resourceVersion / resourceVersionMatch table. */
@QuarkusTest
class ListSemanticsTest {

    @Inject
    Store store;

    @Inject
    HistoryCompaction history;

    @Test
    void itemsAreSortedByNamespaceThenNameAndTheListCarriesItsSnapshotRevision() {
        String first = newNamespace("sort-a");
        String second = newNamespace("sort-b");
        for (String name : List.of("zeta", "alpha", "mid")) {
            createOk(configMaps(second), configMap(name, ""));
            createOk(configMaps(first), configMap(name, ""));
        }
        Response list = given().get(configMaps(first));
        list.then().statusCode(200)
                .contentType(ContentType.JSON)
                .body("kind", equalTo("ConfigMapList"))
                .body("apiVersion", equalTo("v1"))
                .body("items.metadata.name", equalTo(List.of("alpha", "mid", "zeta")));
        assertEquals(Api.currentRevision(), Long.parseLong(list.path("metadata.resourceVersion")));

        List<String> all = given().queryParam("fieldSelector", "metadata.name=mid").get("/api/v1/configmaps")
                .then().statusCode(200).extract().path("items.metadata.namespace");
        assertEquals(all.indexOf(first) + 1, all.indexOf(second), "namespaces in order: " + all);
    }

    @Test
    void aLargeListIsStreamedAndArrivesWholeAtOneRevision() {
        String ns = newNamespace("large");
        String value = "x".repeat(64 * 1024);
        int count = (int) (ResponseBodies.STREAM_LISTS_FROM_BYTES / value.length()) + 4;
        for (int i = 0; i < count; i++) {
            createOk(configMaps(ns), configMap(String.format("cm-%03d", i), "\"data\":{\"v\":\"" + value + "\"}"));
        }
        long revision = Api.currentRevision();
        Response list = given().get(configMaps(ns));
        list.then().statusCode(200)
                .contentType(ContentType.JSON)
                .header("Content-Length", nullValue()) // sent as it is written
                .body("kind", equalTo("ConfigMapList"))
                .body("items", hasSize(count))
                .body("items[" + (count - 1) + "].metadata.name", equalTo(String.format("cm-%03d", count - 1)))
                .body("items[0].data.v", equalTo(value));
        assertEquals(revision, Long.parseLong(list.path("metadata.resourceVersion")));
        given().queryParam("limit", 2).get(configMaps(ns)).then().statusCode(200)
                .header("Content-Length", notNullValue()) // small ones go whole
                .body("items", hasSize(2));
    }

    @Test
    void labelAndFieldSelectorsFilter() {
        String ns = newNamespace("select");
        createOk(configMaps(ns), labelled("web-1", "{\"app\":\"web\",\"tier\":\"front\"}"));
        createOk(configMaps(ns), labelled("web-2", "{\"app\":\"web\"}"));
        createOk(configMaps(ns), labelled("db-1", "{\"app\":\"db\"}"));

        assertEquals(List.of("web-1", "web-2"), names(ns, given().queryParam("labelSelector", "app=web")));
        assertEquals(List.of("db-1"), names(ns, given().queryParam("labelSelector", "app notin (web)")));
        assertEquals(List.of("web-1"), names(ns, given().queryParam("labelSelector", "app in (web,db),tier")));
        assertEquals(List.of("db-1", "web-2"), names(ns, given().queryParam("labelSelector", "!tier")));
        assertEquals(List.of("web-2"), names(ns, given().queryParam("fieldSelector", "metadata.name=web-2")));
        assertEquals(List.of("db-1", "web-1"), names(ns, given().queryParam("fieldSelector", "metadata.name!=web-2")));
        assertEquals(List.of("web-1"), names(ns, given().queryParam("labelSelector", "app=web")
                .queryParam("fieldSelector", "metadata.name!=web-2,metadata.namespace=" + ns)));
        assertEquals(List.of(), names(ns, given().queryParam("fieldSelector", "metadata.namespace=elsewhere")));
    }

    private static List<String> names(String ns, RequestSpecification request) {
        return request.get(configMaps(ns)).then().statusCode(200).extract().path("items.metadata.name");
    }

    /** A fresh namespace holding ConfigMaps cm-00, cm-01, ... */
    private static String namespaceWith(int count) {
        String ns = newNamespace("page");
        for (int i = 0; i < count; i++) {
            createOk(configMaps(ns), configMap(String.format("cm-%02d", i), "\"data\":{\"v\":\"0\"}"));
        }
        return ns;
    }

    @Test
    void pagesShareTheFirstPagesSnapshotEvenWhileWritesGoOn() {
        String ns = namespaceWith(10);
        Response page = given().queryParam("limit", 4).get(configMaps(ns));
        page.then().statusCode(200)
                .body("items", hasSize(4))
                .body("metadata.remainingItemCount", equalTo(6))
                .body("metadata.continue", notNullValue());
        String snapshot = page.path("metadata.resourceVersion");

        // changes after the first page are not seen by the later ones
        given().delete(configMaps(ns) + "/cm-05").then().statusCode(200);
        createOk(configMaps(ns), configMap("cm-99", ""));
        given().contentType("application/merge-patch+json").body("{\"data\":{\"v\":\"1\"}}")
                .patch(configMaps(ns) + "/cm-07").then().statusCode(200);

        List<String> names = new ArrayList<>(page.path("items.metadata.name"));
        List<String> values = new ArrayList<>(page.path("items.data.v"));
        String token = page.path("metadata.continue");
        while (token != null && !token.isEmpty()) {
            page = given().queryParam("limit", 4).queryParam("continue", token).get(configMaps(ns));
            page.then().statusCode(200).body("metadata.resourceVersion", equalTo(snapshot));
            names.addAll(page.path("items.metadata.name"));
            values.addAll(page.path("items.data.v"));
            token = page.path("metadata.continue");
            if (token != null && !token.isEmpty()) {
                page.then().body("metadata.remainingItemCount", equalTo(10 - names.size()));
            }
        }
        assertEquals(List.of("cm-00", "cm-01", "cm-02", "cm-03", "cm-04", "cm-05", "cm-06", "cm-07", "cm-08", "cm-09"),
                names);
        assertEquals(List.of("0", "0", "0", "0", "0", "0", "0", "0", "0", "0"), values);
        page.then().body("metadata.remainingItemCount", nullValue());
    }

    @Test
    void remainingItemCountIsOnlyGivenForUnfilteredLists() {
        String ns = namespaceWith(5);
        given().queryParam("limit", 2).queryParam("labelSelector", "!missing").get(configMaps(ns)).then()
                .statusCode(200)
                .body("items", hasSize(2))
                .body("metadata.continue", notNullValue())
                .body("metadata.remainingItemCount", nullValue());
    }

    @Test
    void resourceVersionZeroAndNotOlderThanServeTheNewestState() {
        String ns = namespaceWith(2);
        String before = given().get(configMaps(ns)).path("metadata.resourceVersion");
        createOk(configMaps(ns), configMap("later", ""));

        given().queryParam("resourceVersion", "0").get(configMaps(ns)).then().statusCode(200).body("items", hasSize(3));
        given().queryParam("resourceVersion", before).get(configMaps(ns)).then().statusCode(200).body("items", hasSize(3));
        given().queryParam("resourceVersion", before).queryParam("resourceVersionMatch", "NotOlderThan")
                .get(configMaps(ns)).then().statusCode(200).body("items", hasSize(3));
    }

    @Test
    void exactReadsTheSnapshotAtThatRevision() {
        String ns = namespaceWith(2);
        String before = given().get(configMaps(ns)).path("metadata.resourceVersion");
        createOk(configMaps(ns), configMap("later", ""));
        given().delete(configMaps(ns) + "/cm-00").then().statusCode(200);

        given().queryParam("resourceVersion", before).queryParam("resourceVersionMatch", "Exact").get(configMaps(ns))
                .then().statusCode(200)
                .body("metadata.resourceVersion", equalTo(before))
                .body("items.metadata.name", equalTo(List.of("cm-00", "cm-01")));
        // with a limit and no match, a resourceVersion is exact too
        given().queryParam("resourceVersion", before).queryParam("limit", 10).get(configMaps(ns))
                .then().statusCode(200)
                .body("metadata.resourceVersion", equalTo(before))
                .body("items.metadata.name", equalTo(List.of("cm-00", "cm-01")));
    }

    @Test
    void contradictoryParametersAreBadRequest() {
        String ns = namespaceWith(3);
        String token = given().queryParam("limit", 1).get(configMaps(ns)).path("metadata.continue");
        given().queryParam("resourceVersionMatch", "Exact").get(configMaps(ns)).then().statusCode(400)
                .body("message", containsString("resourceVersionMatch is forbidden unless resourceVersion is provided"));
        given().queryParam("resourceVersionMatch", "NotOlderThan").get(configMaps(ns)).then().statusCode(400);
        given().queryParam("resourceVersion", "0").queryParam("resourceVersionMatch", "Exact").get(configMaps(ns))
                .then().statusCode(400);
        given().queryParam("resourceVersion", "1").queryParam("resourceVersionMatch", "Sometime").get(configMaps(ns))
                .then().statusCode(400);
        given().queryParam("continue", token).queryParam("resourceVersion", "5").get(configMaps(ns))
                .then().statusCode(400).body("message", containsString("not allowed when using continue"));
        given().queryParam("continue", token).queryParam("resourceVersion", "5")
                .queryParam("resourceVersionMatch", "Exact").get(configMaps(ns)).then().statusCode(400);
        given().queryParam("continue", token).queryParam("resourceVersion", "0").queryParam("limit", 1)
                .get(configMaps(ns)).then().statusCode(200).body("items.metadata.name", equalTo(List.of("cm-01")));
    }

    @Test
    void aResourceVersionFromTheFutureTimesOut() {
        String ns = namespaceWith(1);
        long future = Api.currentRevision() + 1000;
        given().queryParam("resourceVersion", future).get(configMaps(ns)).then()
                .statusCode(504)
                .header("Retry-After", notNullValue())
                .body("kind", equalTo("Status"))
                .body("reason", equalTo("Timeout"))
                .body("message", containsString("Too large resource version"))
                .body("details.causes[0].reason", equalTo("ResourceVersionTooLarge"));
        given().queryParam("resourceVersion", future).get(configMaps(ns) + "/cm-00").then().statusCode(504);
    }

    @Test
    void compactedRevisionsAreGone() {
        String ns = namespaceWith(5);
        Response firstPage = given().queryParam("limit", 2).get(configMaps(ns));
        String snapshot = firstPage.path("metadata.resourceVersion");
        String token = firstPage.path("metadata.continue");
        createOk(configMaps(ns), configMap("cm-03a", ""));

        history.compactTo(store.currentRevision(), 1000);

        given().queryParam("resourceVersion", snapshot).queryParam("resourceVersionMatch", "Exact").get(configMaps(ns))
                .then().statusCode(410)
                .body("reason", equalTo("Expired"))
                .body("message", containsString("too old resource version: " + snapshot));

        Response expired = given().queryParam("limit", 2).queryParam("continue", token).get(configMaps(ns));
        expired.then().statusCode(410)
                .body("kind", equalTo("Status"))
                .body("reason", equalTo("Expired"))
                .body("metadata.continue", notNullValue());
        String fresh = expired.path("metadata.continue");
        assertNotNull(fresh);
        // the fresh token continues, inconsistently, from the newest state after the same key
        Response rest = given().queryParam("limit", 10).queryParam("continue", fresh).get(configMaps(ns));
        rest.then().statusCode(200)
                .body("items.metadata.name", equalTo(List.of("cm-02", "cm-03", "cm-03a", "cm-04")))
                .body("metadata.continue", emptyOrNullString());
    }

    @Test
    void theWholeCollectionIsReadableAcrossNamespaces() {
        String ns = namespaceWith(1);
        List<String> namespaces = given().get("/api/v1/configmaps").then().statusCode(200)
                .extract().path("items.metadata.namespace");
        assertEquals(true, namespaces.contains(ns));
    }
}
