package io.watchgate.health;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.fanout.WatchHubs;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The probes a StatefulSet points at: started, live, and ready unless draining or refusing writes. */
@QuarkusTest
class HealthProbesTest {

    @Inject
    WatchHubs watches;

    @Test
    void aRunningServerIsStartedLiveAndReady() {
        given().get(Management.url("/q/health/started")).then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("store recovered"));
        given().get(Management.url("/q/health/live")).then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'write-ahead log' }.data.refusal", equalTo("none"));
        given().get(Management.url("/q/health/ready")).then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'serving' }.data.takesWrites", equalTo(true));
    }

    @Test
    void aDrainingServerIsLiveButNotReady() throws Exception {
        watches.drain().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            given().get(Management.url("/q/health/ready")).then().statusCode(503)
                    .body("status", equalTo("DOWN"))
                    .body("checks.find { it.name == 'serving' }.data.draining", equalTo(true));
            given().get(Management.url("/q/health/live")).then().statusCode(200);
        } finally {
            watches.resume();
        }
        given().get(Management.url("/q/health/ready")).then().statusCode(200);
    }
}
