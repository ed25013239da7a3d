package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every hostile input must get: a 4xx {@code Status} (never a 500, never silence), within a time bound, no
 * larger than a bound, while another client goes on being served within {@link #OTHERS_WAIT}, during the attack and
 * after it.
 */
public final class Hostile {

    /** The largest error answer any input may earn. */
    public static final int MAX_STATUS_BYTES = 64 * 1024;
    /**
     * How long another client may wait for a plain read while an attack is under way: less than the attacks of
     * several seconds that would hold it for their whole length, more than this 2-core machine's scheduling and
     * collections take when other processes keep both cores busy (a read took 1.09 s so, behind nothing). An event
     * loop held past {@link HostileApp#LOOP_LIMIT} is caught apart from this, in the app's log ({@link AppLogHarms}).
     */
    public static final Duration OTHERS_WAIT = Duration.ofSeconds(2);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OTHERS_READ = "/api/v1/namespaces/default";

    private Hostile() {
    }

    /** The answer to {@code attack}, checked to come within {@code limit}, while others were served meanwhile. */
    public static HttpResponse<byte[]> answer(HostileApp app, Duration limit, Callable<HttpResponse<byte[]>> attack)
            throws Exception {
        long start = System.nanoTime();
        HttpResponse<byte[]> response = whileOthersAreServed(app, attack);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(limit) <= 0, "answered in " + took.toMillis() + " ms, more than " + limit);
        return response;
    }

    /**
     * The Status of a refusal: {@code code}, {@code reason}, at most {@link #MAX_STATUS_BYTES}; returns it for more
     * checks (its message names the problem).
     */
    public static JsonNode refused(HttpResponse<byte[]> response, int code, String reason) throws Exception {
        byte[] body = response.body();
        assertTrue(body.length <= MAX_STATUS_BYTES, "an error answer of " + body.length + " bytes");
        JsonNode status;
        try {
            status = JSON.readTree(body);
        } catch (Exception e) {
            throw new AssertionError("no Status but " + response.statusCode() + ": "
                    + new String(body, 0, Math.min(body.length, 500)), e);
        }
        assertEquals(code, response.statusCode(), status.toString());
        assertEquals("Status", status.path("kind").asText(), status.toString());
        assertEquals(reason, status.path("reason").asText(), status.toString());
        assertEquals(code, status.path("code").asInt(), status.toString());
        assertTrue(status.path("message").asText().length() > 0, "a Status without a message");
        return status;
    }

    /** A request that may be refused for want of memory (429 with Retry-After) and sent again. */
    public interface Refusable {
        HttpResponse<byte[]> send() throws Exception;
    }

    /**
     * Sends {@code request}, and while it is refused for want of memory (429 with Retry-After, a Status) waits as
     * told and sends it again, at most {@code attempts} times: the server shedding load as it should, and a client
     * that waits gets its write in. Counts the refusals in {@code refused}; returns the last answer.
     */
    public static HttpResponse<byte[]> admitted(Refusable request, int attempts, AtomicInteger refused)
            throws Exception {
        for (int attempt = 1; ; attempt++) {
            HttpResponse<byte[]> response = request.send();
            if (response.statusCode() != 429 || attempt == attempts) {
                return response;
            }
            refused(response, 429, "TooManyRequests");
            refused.incrementAndGet();
            long wait = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
            Thread.sleep(Duration.ofSeconds(wait).toMillis()); // as the server asked
        }
    }

    /**
     * Runs {@code attack} while another client reads every 100 ms; fails if one of its reads waited more than
     * {@link #OTHERS_WAIT}, during the attack or in one more read after it.
     */
    public static <T> T whileOthersAreServed(HostileApp app, Callable<T> attack) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        AtomicBoolean attacking = new AtomicBoolean(true);
        try {
            Future<List<String>> others = threads.submit(() -> {
                List<String> slow = new ArrayList<>();
                do {
                    readAsAnother(app, slow);
                    Thread.sleep(100); // the other client's pace, not a wait for anything
                } while (attacking.get());
                return slow;
            });
            T result;
            try {
                result = threads.submit(attack).get();
            } finally {
                attacking.set(false);
            }
            List<String> slow = others.get();
            readAsAnother(app, slow);
            if (!slow.isEmpty()) {
                fail("another client was kept waiting: " + slow);
            }
            return result;
        } finally {
            threads.shutdownNow();
        }
    }

    private static void readAsAnother(HostileApp app, List<String> slow) {
        long start = System.nanoTime();
        try {
            HttpResponse<byte[]> response = app.send(app.request(OTHERS_READ).timeout(OTHERS_WAIT.multipliedBy(5)).GET());
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (response.statusCode() != 200) {
                slow.add("a read answered " + response.statusCode());
            } else if (millis > OTHERS_WAIT.toMillis()) {
                LocalTime sent = LocalTime.now().minusNanos(millis * 1_000_000); // to find it in the app's log
                slow.add("a read sent at " + sent + " took " + millis + " ms");
            }
        } catch (Exception e) {
            slow.add("a read failed after " + (System.nanoTime() - start) / 1_000_000 + " ms: " + e);
        }
    }
}
