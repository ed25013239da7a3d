package io.watchgate.liveview;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The live view's files: each one the page has, from the class path, with the headers that keep it to itself. */
@QuarkusTest
class LiveViewRouteTest {

    @Test
    void everyFileOfThePageIsServedAndNothingElse() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources", LiveViewRoute.FILES))) {
            Set<String> names = files.map(file -> file.getFileName().toString()).collect(Collectors.toSet());
            assertEquals(names, Set.copyOf(LiveViewRoute.NAMES), "the route names the directory's files");
        }
        for (String name : LiveViewRoute.NAMES) {
            given().get("/live-view/" + name).then().statusCode(200)
                    .header("Content-Security-Policy", equalTo(LiveViewRoute.CONTENT_SECURITY_POLICY))
                    .header("X-Content-Type-Options", "nosniff").header("Cache-Control", "no-cache");
        }
        given().get("/live-view/missing.js").then().statusCode(404).body("kind", equalTo("Status"));
        given().get("/live-view/").then().statusCode(404);
        given().get("/live-view/..%2Fapplication.properties").then().statusCode(404);
    }

    @Test
    void thePageIsAtTheRootAndAskedAboutAgainByItsTag() {
        String etag = given().get("/").then().statusCode(200).contentType(startsWith("text/html"))
                .body(containsString("<title>watchgate live view</title>"))
                .header("X-Frame-Options", "DENY").header("Referrer-Policy", "no-referrer")
                .extract().header("ETag");
        given().header("If-None-Match", etag).get("/").then().statusCode(304);
        given().get("/live-view/main.js").then().contentType("text/javascript; charset=utf-8");
        given().get("/live-view/live-view.css").then().contentType("text/css; charset=utf-8");
        String length = given().get("/live-view/index.html").then().extract().header("Content-Length");
        given().head("/").then().statusCode(200).header("Content-Length", length);
    }
}
