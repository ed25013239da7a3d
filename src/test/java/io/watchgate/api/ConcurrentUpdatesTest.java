package io.watchgate.api;

import static io.restassured.RestAssured.given;
import static io.watchgate.api.Api.configMap;
import static io.watchgate.api.Api.configMaps;
import static io.watchgate.api.Api.createOk;
import static io.watchgate.api.Api.newNamespace;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Optimistic concurrency: many clients read-modify-write one object with its resourceVersion. Every revision
 * has exactly one winner, the losers get 409 Conflict, and no acknowledged update is lost.
 */
@QuarkusTest
class ConcurrentUpdatesTest {

    private static final int THREADS = 8;
    private static final int ROUNDS = 15;

    @Test
    void conditionalUpdatesHaveOneWinnerPerRevisionAndLoseNothing() throws Exception {
        String ns = newNamespace("race");
        String counter = configMaps(ns) + "/counter";
        createOk(configMaps(ns), configMap("counter", "\"data\":{\"count\":\"0\"}"));

        Set<String> winningRevisions = ConcurrentHashMap.newKeySet();
        AtomicInteger wins = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        // each round, every client reads before any writes: all race from one revision, and one of them wins
        CyclicBarrier allRead = new CyclicBarrier(THREADS);
        CyclicBarrier allWrote = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> clients = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            clients.add(pool.submit(() -> {
                for (int round = 0; round < ROUNDS; round++) {
                    Response read = given().get(counter);
                    String rv = read.path("metadata.resourceVersion");
                    int count = Integer.parseInt(read.path("data.count"));
                    allRead.await(60, TimeUnit.SECONDS);
                    Response write = given().contentType(ContentType.JSON)
                            .body("{\"metadata\":{\"name\":\"counter\",\"resourceVersion\":\"" + rv + "\"},"
                                    + "\"data\":{\"count\":\"" + (count + 1) + "\"}}")
                            .put(counter);
                    if (write.statusCode() == 200) {
                        wins.incrementAndGet();
                        assertTrue(winningRevisions.add(write.path("metadata.resourceVersion")));
                    } else {
                        assertEquals(409, write.statusCode(), write.asString());
                        assertEquals("Conflict", write.path("reason"));
                        conflicts.incrementAndGet();
                    }
                    allWrote.await(60, TimeUnit.SECONDS);
                }
                return null;
            }));
        }
        for (Future<?> client : clients) {
            client.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();

        assertEquals(ROUNDS, wins.get(), "one winner a round, of " + THREADS + " clients that read one revision");
        assertEquals(ROUNDS * (THREADS - 1), conflicts.get(), "and every other client told it lost");
        given().get(counter).then().statusCode(200)
                .body("data.count", org.hamcrest.Matchers.equalTo(Integer.toString(ROUNDS)));
    }

    @Test
    void unconditionalPatchesAreRetriedOnTheNewestStateSoNoneIsLost() throws Exception {
        String ns = newNamespace("patch-race");
        String target = configMaps(ns) + "/labels";
        createOk(configMaps(ns), configMap("labels", ""));
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<Integer>> writers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            writers.add(pool.submit(() -> given().contentType("application/merge-patch+json")
                    .body("{\"data\":{\"writer-" + thread + "\":\"done\"}}")
                    .patch(target).statusCode()));
        }
        for (Future<Integer> writer : writers) {
            assertEquals(200, writer.get(60, TimeUnit.SECONDS));
        }
        pool.shutdown();
        Response result = given().get(target);
        for (int t = 0; t < THREADS; t++) {
            assertEquals("done", result.path("data.writer-" + t));
        }
    }
}
