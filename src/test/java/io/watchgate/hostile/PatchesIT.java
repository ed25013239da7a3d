package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.IntFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Patches sized to make a patch engine, or the event loop running it, do the most work a 3 MiB body can ask for:
 * each is answered (a 4xx Status or the patched object) within seconds, while others are served,
 * and no event loop is blocked meanwhile (checked after the class, see {@link SharedHostileApp}).
 */
@ExtendWith(SharedHostileApp.class)
@Isolated
class PatchesIT {

    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    private static final Duration ANSWERED_WITHIN = Duration.ofSeconds(20);
    /** A success answers the patched object, which the object size limit bounds. */
    private static final int MAX_OBJECT_BYTES = 3 * 1024 * 1024 + 64 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    static HostileApp app;

    @BeforeAll
    static void start(HostileApp shared) throws Exception {
        app = shared;
    }

    @Test
    void aStrategicMergeOf180000OwnerReferencesIsAnsweredInSeconds() throws Exception {
        String name = created("owners", "");
        String patch = "{\"metadata\":{\"ownerReferences\":" + list(180_000, i -> "{\"uid\":\"u" + i + "\"}") + "}}";
        answeredWithin(patch(name, "application/strategic-merge-patch+json", patch));
    }

    @Test
    void anElementOrderOf90000EntriesIsAnsweredInSeconds() throws Exception {
        String name = created("order", "");
        String patch = "{\"metadata\":{\"$setElementOrder/ownerReferences\":"
                + list(90_000, i -> "{\"uid\":\"u" + (90_000 - i) + "\"}") + ",\"ownerReferences\":"
                + list(90_000, i -> "{\"uid\":\"u" + i + "\"}") + "}}";
        answeredWithin(patch(name, "application/strategic-merge-patch+json", patch));
    }

    @Test
    void retainingAndDeletingHundredsOfThousandsOfKeysIsAnsweredInSeconds() throws Exception {
        String name = created("retain", "");
        String retain = "{\"data\":{\"$retainKeys\":" + list(200_000, i -> "\"k" + i + "\"") + ",\"k1\":\"v\"}}";
        answeredWithin(patch(name, "application/strategic-merge-patch+json", retain));
        String delete = "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":"
                + list(200_000, i -> "\"f" + i + "\"") + "}}";
        answeredWithin(patch(name, "application/strategic-merge-patch+json", delete));
    }

    @Test
    void aJsonPatchOfMoreThan10000OperationsIsTooLarge() throws Exception {
        String name = created("many-ops", "");
        String patch = list(10_001, i -> "{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"" + name + "\"}");
        HttpResponse<byte[]> response = Hostile.answer(app, ANSWERED_WITHIN,
                () -> app.send(patch(name, "application/json-patch+json", patch)));
        JsonNode status = Hostile.refused(response, 413, "RequestEntityTooLarge");
        assertTrue(status.path("message").asText().contains("10000"), status.toString());
    }

    @Test
    void tenThousandInsertionsAtTheHeadOfALongArrayAreAnsweredInSeconds() throws Exception {
        // every insertion at index 0 shifts the whole array: 10,000 times 100,000 elements
        String name = created("long-array", ",\"data\":{\"k\":\"v\"}");
        answeredWithin(patch(name, "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":" + list(100_000, i -> "\"example.com/f" + i + "\"") + "}}"));
        String patch = list(10_000, i -> "{\"op\":\"add\",\"path\":\"/metadata/finalizers/0\",\"value\":\"example.com/n"
                + i + "\"}");
        answeredWithin(patch(name, "application/json-patch+json", patch));
    }

    @Test
    void deepNestingIsRefusedOrAnswered() throws Exception {
        String name = created("deep", "");
        for (int depth : new int[] {500, 200_000}) {
            String patch = "{\"data\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth) + "}";
            answeredWithin(patch(name, "application/merge-patch+json", patch));
            answeredWithin(patch(name, "application/strategic-merge-patch+json", patch));
        }
    }

    @Test
    void aMergePatchOf150000MembersIsAnsweredInSeconds() throws Exception {
        String name = created("members", "");
        StringBuilder patch = new StringBuilder("{\"data\":{");
        for (int i = 0; i < 150_000; i++) {
            patch.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":\"v\"");
        }
        answeredWithin(patch(name, "application/merge-patch+json", patch.append("}}").toString()));
        // and removing them all again
        answeredWithin(patch(name, "application/merge-patch+json", patch.toString().replace("\"v\"", "null")));
    }

    @Test
    void aNearlyMegabyteObjectPatchedOverAndOverLeavesTheEventLoopsFree() throws Exception {
        // each tiny patch copies, merges, validates and serializes 900 KiB (a ConfigMap's data holds at most 1 MiB):
        // on a worker, not an event loop
        String name = created("megabyte", ",\"data\":{\"big\":\"" + "x".repeat(900 * 1024) + "\"}");
        Hostile.whileOthersAreServed(app, () -> {
            for (int i = 0; i < 40; i++) {
                HttpResponse<byte[]> response = app.send(patch(name, "application/merge-patch+json",
                        "{\"data\":{\"step\":\"" + i + "\"}}"));
                assertEquals(200, response.statusCode(), new String(response.body(), 0, 300));
            }
            return null;
        });
    }

    /** Answered in time, others served meanwhile, and either a 4xx Status or the patched object. */
    private static void answeredWithin(HttpRequest.Builder request) throws Exception {
        HttpResponse<byte[]> response = Hostile.answer(app, ANSWERED_WITHIN, () -> app.send(request));
        int code = response.statusCode();
        if (code >= 200 && code < 300) {
            assertTrue(response.body().length <= MAX_OBJECT_BYTES, response.body().length + " bytes answered");
            return;
        }
        assertTrue(code >= 400 && code < 500, "answered " + code + ": "
                + new String(response.body(), 0, Math.min(response.body().length, 500)));
        JsonNode status = JSON.readTree(response.body());
        Hostile.refused(response, code, status.path("reason").asText());
    }

    private static String created(String name, String extra) throws Exception {
        HttpResponse<byte[]> response = app.send(app.request(CONFIGMAPS).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"name\":\"" + name + "\"}" + extra + "}")));
        assertEquals(201, response.statusCode(), new String(response.body()));
        return name;
    }

    private static HttpRequest.Builder patch(String name, String contentType, String body) {
        return app.request(CONFIGMAPS + "/" + name).header("Content-Type", contentType)
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body));
    }

    private static String list(int size, IntFunction<String> element) {
        StringBuilder list = new StringBuilder(size * 24).append('[');
        for (int i = 0; i < size; i++) {
            list.append(i == 0 ? "" : ",").append(element.apply(i));
        }
        return list.append(']').toString();
    }
}
