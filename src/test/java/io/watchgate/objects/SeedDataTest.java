package io.watchgate.objects;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** watchgate.seed.dir: the manifests of a directory are there from the start, whatever order they come in. */
@QuarkusTest
@TestProfile(SeedDataTest.Seeded.class)
class SeedDataTest {

    public static class Seeded implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            try {
                Path dir = Files.createTempDirectory("wg-seed");
                // the ConfigMap's file sorts before its namespace's: the namespace is still made first
                Files.writeString(dir.resolve("a-objects.yaml"), """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata:
                          name: first
                          namespace: seeded
                        data:
                          answer: "42"
                        ---
                        apiVersion: v1
                        kind: Secret
                        metadata:
                          name: token
                          namespace: seeded
                        stringData:
                          token: s3cret
                        """);
                Files.writeString(dir.resolve("b-namespace.json"),
                        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"seeded\"}}");
                Files.writeString(dir.resolve("notes.txt"), "not a manifest: ignored");
                return Map.of("watchgate.seed.dir", dir.toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Test
    void theSeededObjectsAreThereAtStart() {
        given().get("/api/v1/namespaces/seeded").then().statusCode(200);
        given().get("/api/v1/namespaces/seeded/configmaps/first").then().statusCode(200)
                .body("data.answer", equalTo("42"));
        given().get("/api/v1/namespaces/seeded/secrets/token").then().statusCode(200)
                .body("data.token", equalTo("czNjcmV0"));
    }
}
