package io.watchgate.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Status stays small whatever a request echoes into it: a few dozen causes, each cut, and a message cut too. */
class StatusBoundsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_STATUS_BYTES = 64 * 1024;

    @Test
    void aQuarterOfAMillionCausesBecomeThirtyTwoAndACount() throws Exception {
        Causes causes = new Causes();
        for (int i = 0; i < 250_000; i++) {
            if (causes.accept()) {
                causes.add(Cause.invalid("metadata.labels", "-bad" + i, "a qualified name must consist of ..."));
            }
        }
        JsonNode status = render(ApiException.invalid("", "ConfigMap", "many", causes));
        assertEquals(Causes.MAX, status.path("details").path("causes").size());
        String message = status.path("message").asText();
        assertTrue(message.startsWith("ConfigMap \"many\" is invalid: [metadata.labels: Invalid value: \"-bad0\""),
                message);
        assertTrue(message.endsWith(", and 249984 more errors]"), message);
    }

    @Test
    void aListOfCausesIsCutAsCausesAreCollected() throws Exception {
        List<Cause> many = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add(Cause.required("spec.items[" + i + "].name", ""));
        }
        JsonNode status = render(ApiException.invalid("example.com", "Widget", "w", many));
        assertEquals(Causes.MAX, status.path("details").path("causes").size());
        assertTrue(status.path("message").asText().endsWith(", and 984 more errors]"));
    }

    @Test
    void echoedNamesFieldsAndValuesAreCutByTheBytesTheirJsonTakes() throws Exception {
        String megabyte = "\u0001\"é€😀".repeat(200_000);
        List<Cause> causes = new ArrayList<>();
        for (int i = 0; i < Causes.MAX; i++) {
            causes.add(Cause.invalid(megabyte, megabyte, megabyte));
            causes.add(Cause.notSupported(megabyte, megabyte, List.of(megabyte, megabyte)));
        }
        JsonNode status = render(ApiException.invalid(megabyte, megabyte, megabyte, causes));
        JsonNode first = status.path("details").path("causes").get(0);
        assertTrue(first.path("field").asText().endsWith("..."));
        assertTrue(first.path("message").asText().startsWith("Invalid value: \"\u0001\\\"é€😀"),
                first.path("message").asText().substring(0, 40));
        assertTrue(status.path("message").asText().endsWith(" more errors]"));
    }

    @Test
    void anyMessageIsCutAndNoCharacterIsCutInHalf() throws Exception {
        String text = "😀".repeat(1_000_000);
        JsonNode status = render(ApiException.badRequest(text));
        String message = status.path("message").asText();
        assertTrue(message.endsWith("..."));
        String kept = message.substring(0, message.length() - 3);
        assertEquals(kept.codePointCount(0, kept.length()) * 2, kept.length(), "a surrogate pair was split");
        assertEquals("plain", Clip.json("plain", 10));
        assertEquals("1234567...", Clip.json("12345678901", 10));
    }

    /** The Status as it leaves, checked against the bound every error answer keeps. */
    private static JsonNode render(ApiException e) throws Exception {
        byte[] bytes = JSON.writeValueAsBytes(StatusBody.of(e));
        assertTrue(bytes.length <= MAX_STATUS_BYTES, "a Status of " + bytes.length + " bytes");
        return JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
    }
}
