package io.watchgate.objects;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.watchgate.watch.WatchConnection;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Events go an hour after they were last written, as kube-apiserver's {@code --event-ttl} has them: an event written
 * again lives on from that write, other objects never expire, and watchers see each expired event go. The sweep
 * is asked for at a time of the test's choosing, an hour on.
 */
@QuarkusTest
class EventExpiryTest {

    private static final Duration TTL = Duration.ofHours(1);

    @Inject
    EventExpiry expiry;

    @Inject
    Clock clock;

    private static String events(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/events";
    }

    private static String event(String name, int count) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"involvedObject\":{\"kind\":\"ConfigMap\",\"name\":\"app\"},\"reason\":\"Seen\","
                + "\"message\":\"seen " + count + " times\",\"count\":" + count + ",\"type\":\"Normal\"}";
    }

    @Test
    void anEventGoesAnHourAfterItsLastWriteAndWatchersSeeItGo() {
        String ns = newNamespace("event-ttl");
        Instant beforeWrites = clock.instant();
        createOk(events(ns), event("once", 1));
        // an event recorder may write by PUT whether or not the event is there: the first creates it
        given().contentType(ContentType.JSON).body(event("again", 1)).put(events(ns) + "/again").then().statusCode(201);
        createOk(configMaps(ns), configMap("app", ""));
        Instant afterWrites = clock.instant();
        while (clock.millis() <= afterWrites.toEpochMilli()) {
            Thread.onSpinWait(); // the next write's commit (timed to the millisecond) comes after the first ones'
        }
        String written = given().contentType(ContentType.JSON).body(event("again", 2)).put(events(ns) + "/again")
                .then().statusCode(200).extract().path("metadata.resourceVersion");

        expiry.sweep(beforeWrites.plus(TTL).minusMillis(1));
        given().get(events(ns) + "/once").then().statusCode(200); // not an hour yet

        try (WatchConnection watch = WatchConnection.open(events(ns) + "?watch=true&resourceVersion=" + written)) {
            expiry.sweep(afterWrites.plus(TTL));
            JsonNode gone = watch.next();
            assertEquals("DELETED", WatchConnection.type(gone));
            assertEquals("once", WatchConnection.name(gone));
        }
        given().get(events(ns) + "/once").then().statusCode(404);
        given().get(events(ns) + "/again").then().statusCode(200); // written again after: an hour from then
        given().get(configMaps(ns) + "/app").then().statusCode(200); // only events expire

        expiry.sweep(clock.instant().plus(TTL));
        given().get(events(ns) + "/again").then().statusCode(404);
    }
}
