package io.watchgate.objects;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.watchgate.persistence.Durable;
import org.junit.jupiter.api.Test;

/**
 * watchgate.seed.dir: the manifests of a directory are there from the start, whatever order they come in. The durable
 * server's profile seeds them ({@code Durable}), as a demo's durable server would be seeded.
 */
@QuarkusTest
@TestProfile(Durable.class)
class SeedDataTest {

    @Test
    void theSeededObjectsAreThereAtStart() {
        given().get("/api/v1/namespaces/seeded").then().statusCode(200);
        given().get("/api/v1/namespaces/seeded/configmaps/first").then().statusCode(200)
                .body("data.answer", equalTo("42"));
        given().get("/api/v1/namespaces/seeded/secrets/token").then().statusCode(200)
                .body("data.token", equalTo("czNjcmV0"));
    }
}
