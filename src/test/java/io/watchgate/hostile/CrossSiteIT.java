package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * What a page of another site can make a visitor's browser send, without asking the server first: writes in no type,
 * as text or as a form, and a WebSocket upgrade. All refused with a Status, and the store left as it was.
 */
@ExtendWith(SharedHostileApp.class)
@Isolated
class CrossSiteIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLLECTION = "/api/v1/namespaces/default/configmaps";
    private static final Duration LIMIT = Duration.ofSeconds(2);

    static HostileApp app;

    @BeforeAll
    static void start(HostileApp shared) throws Exception {
        app = shared;
    }

    @Test
    void aCreateWithoutContentTypeIsRefused() throws Exception {
        HttpResponse<byte[]> response = Hostile.answer(app, LIMIT, () -> app.send(app.request(COLLECTION)
                .POST(HttpRequest.BodyPublishers.ofString(configMap("no-type")))));
        Hostile.refused(response, 415, "UnsupportedMediaType");
        assertAbsent("no-type");
    }

    @Test
    void aCreateAsTextIsRefused() throws Exception {
        HttpResponse<byte[]> response = Hostile.answer(app, LIMIT, () -> app.send(app.request(COLLECTION)
                .header("Content-Type", "text/plain;charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(configMap("as-text")))));
        Hostile.refused(response, 415, "UnsupportedMediaType");
        assertAbsent("as-text");
    }

    @Test
    void aCreateAsAFormIsRefused() throws Exception {
        // a form whose one field's name is the JSON object and whose value is empty, as an HTML form can post it
        HttpResponse<byte[]> response = Hostile.answer(app, LIMIT, () -> app.send(app.request(COLLECTION)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(configMap("as-form") + "="))));
        Hostile.refused(response, 415, "UnsupportedMediaType");
        HttpResponse<byte[]> multipart = Hostile.answer(app, LIMIT, () -> app.send(app.request(COLLECTION)
                .header("Content-Type", "multipart/form-data; boundary=b")
                .POST(HttpRequest.BodyPublishers.ofString("--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\n"
                        + configMap("as-form") + "\r\n--b--\r\n"))));
        Hostile.refused(multipart, 415, "UnsupportedMediaType");
        assertAbsent("as-form");
    }

    @Test
    void anUpdateOrDeleteWithoutContentTypeChangesNothing() throws Exception {
        HttpResponse<byte[]> created = app.send(app.request(COLLECTION).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(configMap("kept"))));
        assertEquals(201, created.statusCode());
        HttpResponse<byte[]> put = Hostile.answer(app, LIMIT, () -> app.send(app.request(COLLECTION + "/kept")
                .PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"metadata\":{\"name\":\"kept\"},\"data\":{\"k\":\"x\"}}"))));
        Hostile.refused(put, 415, "UnsupportedMediaType");
        HttpResponse<byte[]> patch = Hostile.answer(app, LIMIT, () -> app.send(app.request(COLLECTION + "/kept")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"data\":{\"k\":\"x\"}}"))));
        Hostile.refused(patch, 415, "UnsupportedMediaType");
        HttpResponse<byte[]> delete = Hostile.answer(app, LIMIT, () -> app.send(app.request(COLLECTION + "/kept")
                .method("DELETE", HttpRequest.BodyPublishers.ofString("{}"))));
        Hostile.refused(delete, 415, "UnsupportedMediaType");
        HttpResponse<byte[]> kept = app.send(app.request(COLLECTION + "/kept").GET());
        assertEquals(200, kept.statusCode());
        assertEquals("v", JSON.readTree(kept.body()).at("/data/k").asText());
    }

    @Test
    void aWebSocketUpgradeFromAnotherSiteIsRefusedBeforeTheUpgrade() throws Exception {
        HostileApp.RawResponse response = Hostile.whileOthersAreServed(app, () -> app.raw("GET " + COLLECTION
                + "?watch=true HTTP/1.1\r\nHost: localhost:" + app.port() + "\r\nUpgrade: websocket\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Origin: http://evil.example\r\n", new byte[0]));
        assertEquals(403, response.statusCode(), response.head());
        JsonNode status = JSON.readTree(new String(response.body(), StandardCharsets.UTF_8));
        assertEquals("Forbidden", status.path("reason").asText(), status.toString());
        assertTrue(status.path("message").asText().contains("evil.example"), status.toString());
    }

    private static void assertAbsent(String name) throws Exception {
        assertEquals(404, app.send(app.request(COLLECTION + "/" + name).GET()).statusCode(), name + " was created");
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\"},\"data\":{\"k\":\"v\"}}";
    }
}
