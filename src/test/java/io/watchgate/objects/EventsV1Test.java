package io.watchgate.objects;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Events;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.watchgate.watch.WatchConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * events.k8s.io/v1 Events, as client-go's newer event recorder writes them: the same stored objects as core v1
 * Events, shown at each version with kube's field names (regarding and involvedObject, note and message,
 * reportingController and reportingComponent, the deprecated* fields and source, timestamps and count), whichever
 * version wrote them, in reads, lists, watches, Tables and field selectors; written once, counted once.
 */
@QuarkusTest
class EventsV1Test {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String eventsV1(String namespace) {
        return "/apis/events.k8s.io/v1/namespaces/" + namespace + "/events";
    }

    private static String coreEvents(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/events";
    }

    /** An Event as client-go's events recorder makes it. */
    private static String recorded(String name, String namespace, String pod) {
        return """
                {"apiVersion":"events.k8s.io/v1","kind":"Event",
                 "metadata":{"name":"%s","namespace":"%s"},
                 "eventTime":"2026-12-07T10:00:00.123456Z",
                 "reportingController":"example.com/scheduler","reportingInstance":"scheduler-1",
                 "action":"Binding","reason":"Scheduled","type":"Normal",
                 "regarding":{"kind":"Pod","namespace":"%s","name":"%s","uid":"1f6c","apiVersion":"v1"},
                 "note":"Successfully assigned %s/%s to node-1"}
                """.formatted(name, namespace, namespace, pod, namespace, pod);
    }

    private static JsonNode answer(Response response, int status) throws Exception {
        response.then().statusCode(status);
        return JSON.readTree(response.asString());
    }

    private static Response post(String collection, String body) {
        return given().contentType(ContentType.JSON).body(body).post(collection);
    }

    @Test
    void anEventRecordedAtEventsV1IsACoreEventWithTheCoreNames() throws Exception {
        String namespace = newNamespace("events-v1");
        JsonNode created = answer(post(eventsV1(namespace), recorded("web.1", namespace, "web")), 201);
        assertEquals("events.k8s.io/v1", created.path("apiVersion").asText());
        assertEquals("web", created.path("regarding").path("name").asText());

        JsonNode core = answer(given().get(coreEvents(namespace) + "/web.1"), 200);
        assertEquals("v1", core.path("apiVersion").asText());
        assertEquals("Pod", core.path("involvedObject").path("kind").asText());
        assertEquals("Successfully assigned " + namespace + "/web to node-1", core.path("message").asText());
        assertEquals("example.com/scheduler", core.path("reportingComponent").asText());
        assertEquals(List.of(false, false, false), List.of(core.has("regarding"), core.has("note"),
                core.has("reportingController")), "no events.k8s.io names in " + core);
        assertEquals(created.path("metadata").path("resourceVersion"), core.path("metadata").path("resourceVersion"),
                "one stored object");
        assertEquals(1, answer(given().get(coreEvents(namespace)), 200).path("items").size());
    }

    @Test
    void aCoreEventReadsAtEventsV1WithTheDeprecatedFields() throws Exception {
        String namespace = newNamespace("events-core");
        answer(post(coreEvents(namespace), """
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"cm.1"},
                 "involvedObject":{"kind":"ConfigMap","name":"cm","namespace":"%s"},
                 "reason":"Synced","message":"synced","type":"Normal","count":3,
                 "source":{"component":"kubelet","host":"node-1"},
                 "firstTimestamp":"2026-12-07T10:00:00Z","lastTimestamp":"2026-12-07T10:05:00Z"}
                """.formatted(namespace)), 201);
        JsonNode shown = answer(given().get(eventsV1(namespace) + "/cm.1"), 200);
        assertEquals("events.k8s.io/v1", shown.path("apiVersion").asText());
        assertEquals("cm", shown.path("regarding").path("name").asText());
        assertEquals("synced", shown.path("note").asText());
        assertEquals(3, shown.path("deprecatedCount").asInt());
        assertEquals("kubelet", shown.path("deprecatedSource").path("component").asText());
        assertEquals("2026-12-07T10:00:00Z", shown.path("deprecatedFirstTimestamp").asText());
        assertEquals("2026-12-07T10:05:00Z", shown.path("deprecatedLastTimestamp").asText());
        assertFalse(shown.has("involvedObject") || shown.has("message") || shown.has("count"), shown.toString());

        JsonNode list = answer(given().get(eventsV1(namespace)), 200);
        assertEquals("EventList", list.path("kind").asText());
        assertEquals("events.k8s.io/v1", list.path("apiVersion").asText());
        assertEquals("synced", list.path("items").get(0).path("note").asText());
    }

    @Test
    void eachVersionsWatchSeesEveryEventAtItsOwnVersion() throws Exception {
        String namespace = newNamespace("events-watch");
        try (WatchConnection v1 = WatchConnection.open(eventsV1(namespace) + "?watch=true");
                WatchConnection core = WatchConnection.open(coreEvents(namespace) + "?watch=true")) {
            answer(post(eventsV1(namespace), recorded("a.1", namespace, "a")), 201);
            answer(given().contentType("application/merge-patch+json").body("{\"message\":\"moved\"}")
                    .patch(coreEvents(namespace) + "/a.1"), 200);
            JsonNode added = v1.next();
            JsonNode modified = v1.next();
            assertEquals(List.of("ADDED", "MODIFIED"), List.of(WatchConnection.type(added),
                    WatchConnection.type(modified)));
            assertEquals("events.k8s.io/v1", modified.path("object").path("apiVersion").asText());
            assertEquals("moved", modified.path("object").path("note").asText());
            assertEquals("a", added.path("object").path("regarding").path("name").asText());

            JsonNode coreAdded = core.next();
            assertEquals("v1", coreAdded.path("object").path("apiVersion").asText());
            assertEquals("a", coreAdded.path("object").path("involvedObject").path("name").asText());
            assertEquals("moved", core.next().path("object").path("message").asText());
        }
    }

    @Test
    void fieldSelectorsUseEventsV1NamesAndTablesTheEventColumns() throws Exception {
        String namespace = newNamespace("events-select");
        answer(post(eventsV1(namespace), recorded("a.1", namespace, "a")), 201);
        answer(post(eventsV1(namespace), recorded("b.1", namespace, "b")), 201);
        JsonNode selected = answer(given().queryParam("fieldSelector", "regarding.name=b,reportingController="
                + "example.com/scheduler").get(eventsV1(namespace)), 200);
        assertEquals(List.of("b.1"), names(selected.path("items")));
        answer(given().queryParam("fieldSelector", "involvedObject.name=b").get(eventsV1(namespace)), 400);

        JsonNode table = answer(given().accept("application/json;as=Table;v=v1;g=meta.k8s.io")
                .get(eventsV1(namespace)), 200);
        List<String> columns = new ArrayList<>();
        table.path("columnDefinitions").forEach(column -> columns.add(column.path("name").asText()));
        assertEquals(List.of("Last Seen", "Type", "Reason", "Object", "Message"), columns);
        assertEquals("pod/a", table.path("rows").get(0).path("cells").get(3).asText());
    }

    @Test
    void anApplyAtEventsV1OwnsEventsV1Fields() throws Exception {
        String namespace = newNamespace("events-apply");
        JsonNode applied = answer(given().contentType("application/apply-patch+yaml")
                .body(recorded("c.1", namespace, "c").getBytes(StandardCharsets.UTF_8)).queryParam("fieldManager", "recorder")
                .patch(eventsV1(namespace) + "/c.1"), 201);
        JsonNode entry = applied.path("metadata").path("managedFields").get(0);
        assertEquals(List.of("recorder", "Apply", "events.k8s.io/v1"), List.of(entry.path("manager").asText(),
                entry.path("operation").asText(), entry.path("apiVersion").asText()));
        assertTrue(entry.path("fieldsV1").has("f:note"), entry.toString());
        assertEquals("Successfully assigned " + namespace + "/c to node-1",
                answer(given().get(coreEvents(namespace) + "/c.1"), 200).path("message").asText());
    }

    @Test
    void anEventsV1EventIsValidatedAsKubeValidatesIt() throws Exception {
        String namespace = newNamespace("events-invalid");
        JsonNode refused = answer(post(eventsV1(namespace), """
                {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"bad.1"},
                 "type":"Sideways","deprecatedCount":2,"series":{"count":1}}
                """), 422);
        assertEquals("Invalid", refused.path("reason").asText());
        List<String> causes = new ArrayList<>();
        refused.path("details").path("causes").forEach(cause -> causes.add(cause.path("field").asText() + ": "
                + cause.path("message").asText()));
        // in kube's order: the rules every Event passes (this one names no object of its namespace), then this version's
        assertEquals(List.of("involvedObject.namespace: Invalid value: \"\": does not match event.namespace",
                "series.count: Invalid value: \"\": should be at least 2", "series.lastObservedTime: Required value",
                "eventTime: Required value", "type: Invalid value: \"\": has invalid value: Sideways",
                "count: Invalid value: \"\": needs to be unset"), causes);

        JsonNode missing = answer(post(eventsV1(namespace), recorded("bad.2", namespace, "p")
                .replace("\"action\":\"Binding\",", "").replace("\"reportingInstance\":\"scheduler-1\",", "")), 422);
        assertTrue(missing.path("message").asText().contains("reportingInstance: Required value, action: Required value"),
                missing.path("message").asText());
        answer(given().get(eventsV1(namespace)), 200).path("items").forEach(item -> {
            throw new AssertionError("nothing stored: " + item);
        });
    }

    @Test
    void anEventsV1EventsSeriesChangesAndItsNoteDoesNot() throws Exception {
        String namespace = newNamespace("events-update");
        answer(post(eventsV1(namespace), recorded("e.1", namespace, "e")), 201);
        String url = eventsV1(namespace) + "/e.1";
        // as client-go's recorder counts a repeat: a strategic merge patch
        JsonNode counted = answer(given().contentType("application/strategic-merge-patch+json")
                .body("{\"series\":{\"count\":2,\"lastObservedTime\":\"2026-12-07T10:01:00.000001Z\"}}")
                .patch(url), 200);
        assertEquals(2, counted.path("series").path("count").asInt());
        JsonNode refused = answer(given().contentType("application/merge-patch+json")
                .body("{\"note\":\"rewritten\"}").patch(url), 422);
        assertEquals("message", refused.path("details").path("causes").get(0).path("field").asText());
        assertTrue(refused.path("message").asText().contains("field is immutable"), refused.toString());
    }

    @Test
    void eachVersionSpeaksItsOwnProtobufMessage() throws Exception {
        String namespace = newNamespace("events-proto");
        answer(post(eventsV1(namespace), recorded("f.1", namespace, "f")), 201);
        byte[] v1 = given().accept("application/vnd.kubernetes.protobuf").get(eventsV1(namespace) + "/f.1")
                .then().statusCode(200).extract().asByteArray();
        Runtime.Unknown envelope = Runtime.Unknown.parseFrom(Arrays.copyOfRange(v1, 4, v1.length));
        assertEquals("events.k8s.io/v1", envelope.getTypeMeta().getApiVersion());
        V1Events.Event event = V1Events.Event.parseFrom(envelope.getRaw());
        assertEquals(List.of("f", "Successfully assigned " + namespace + "/f to node-1", "example.com/scheduler"),
                List.of(event.getRegarding().getName(), event.getNote(), event.getReportingController()));

        byte[] core = given().accept("application/vnd.kubernetes.protobuf").get(coreEvents(namespace))
                .then().statusCode(200).extract().asByteArray();
        Runtime.Unknown list = Runtime.Unknown.parseFrom(Arrays.copyOfRange(core, 4, core.length));
        assertEquals("EventList", list.getTypeMeta().getKind());
        V1.Event item = V1.EventList.parseFrom(list.getRaw()).getItems(0);
        assertEquals(List.of("f", "example.com/scheduler"),
                List.of(item.getInvolvedObject().getName(), item.getReportingComponent()));
    }

    @Test
    void anEventGoesAtOnceWhateverThePropagationPolicy() throws Exception {
        String namespace = newNamespace("events-delete");
        for (String policy : List.of("Foreground", "Orphan")) {
            answer(post(eventsV1(namespace), recorded(policy.toLowerCase() + ".1", namespace, "g")), 201);
            answer(given().contentType(ContentType.JSON).body("{\"propagationPolicy\":\"" + policy + "\"}")
                    .delete(eventsV1(namespace) + "/" + policy.toLowerCase() + ".1"), 200);
        }
        assertEquals(0, answer(given().get(coreEvents(namespace)), 200).path("items").size(),
                "no Event held by a finalizer the collector would never take off");
    }

    @Test
    void deletingANamespaceDeletesItsEventsOnce() throws Exception {
        String namespace = newNamespace("events-gone");
        answer(post(eventsV1(namespace), recorded("d.1", namespace, "d")), 201);
        answer(given().delete("/api/v1/namespaces/" + namespace), 200);
        assertEquals(0, answer(given().get(eventsV1(namespace)), 200).path("items").size());
        assertEquals(0, answer(given().get(coreEvents(namespace)), 200).path("items").size());
        answer(given().get("/api/v1/namespaces/" + namespace), 404);
    }

    private static List<String> names(JsonNode items) {
        List<String> names = new ArrayList<>();
        items.forEach(item -> names.add(item.path("metadata").path("name").asText()));
        return names;
    }
}
