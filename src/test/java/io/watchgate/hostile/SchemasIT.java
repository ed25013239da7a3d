package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Schemas, patterns and validation as an attacker who has read them would feed them: patterns that hide nested
 * repetitions from a reader of their text, documents whose walk would be quadratic, and bodies with a quarter of a
 * million problems. Each is refused with a small Status, fast, while others are served.
 */
@ExtendWith(SharedHostileApp.class)
@Isolated
class SchemasIT {

    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final Duration FAST = Duration.ofSeconds(5);
    /**
     * For 3 MB bodies of a quarter of a million names: parsing them alone (Jackson interns each new field name)
     * takes over a second on a busy two-core machine, before any check.
     */
    private static final Duration BIG = Duration.ofSeconds(8);

    static HostileApp app;

    @BeforeAll
    static void start(HostileApp shared) throws Exception {
        app = shared;
        // a type whose spec maps any key to a list of strings: integers there are each a problem
        HttpResponse<byte[]> created = post(CRDS, definition("lists", "{\"type\":\"object\",\"properties\":{\"spec\":"
                + "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
                + "\"loose\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true},"
                + "\"strict\":{\"type\":\"object\"}}}"));
        assertEquals(201, created.statusCode(), new String(created.body(), StandardCharsets.UTF_8));
    }

    @Test
    void nestedRepetitionsHiddenByQuotingAreRefusedNamingTheField() throws Exception {
        JsonNode status = refusedDefinition("quoted", "(\\\\Q(\\\\E(a{1000}){1000})");
        JsonNode cause = status.path("details").path("causes").get(0);
        assertEquals("spec.versions[0].schema.openAPIV3Schema.properties[spec].pattern", cause.path("field").asText(),
                status.toString());
        assertTrue(cause.path("message").asText().contains("too large"), status.toString());
    }

    @Test
    void nestedRepetitionsHiddenOtherwiseAreRefused() throws Exception {
        String[] hidden = {"[]a](a{1000}){1000}", "[(](a{1000}){1000}", "(?i)(a{1000}){1000}",
            "(?P<n>a{1000}){1000}", "(\\\\x{28}a{1000}){1000}", "(\\\\pL{1000}){1000}", "((a{0,1000}){0,1000})",
            "(\\\\Q)\\\\Ea{100}){1000}"};
        for (int i = 0; i < hidden.length; i++) {
            refusedDefinition("hidden" + i, hidden[i]);
        }
    }

    @Test
    void patternsTooDeepOrTooLongAreRefused() throws Exception {
        refusedDefinition("deep", "(".repeat(1020) + "a" + ")".repeat(1020));
        refusedDefinition("long", "a".repeat(100_000));
        refusedDefinition("classes", "\\\\pL".repeat(30_000));
    }

    @Test
    void manyPatternsEachSmallAreRefusedTogether() throws Exception {
        assertTrue(refusedManyPatterns("sizes", 60, "(a{%d}){10}").contains("instructions in all"));
        assertTrue(refusedManyPatterns("counts", 2000, "^a%d$").contains("distinct patterns"));
    }

    /** A definition of {@code count} fields, each with its own pattern: refused, 422, fast; its message. */
    private static String refusedManyPatterns(String plural, int count, String format) throws Exception {
        StringBuilder properties = new StringBuilder();
        for (int i = 0; i < count; i++) {
            properties.append(i == 0 ? "" : ",").append("\"p").append(i).append("\":{\"type\":\"string\",\"pattern\":\"")
                    .append(String.format(format, 100 + i)).append("\"}");
        }
        HttpResponse<byte[]> response = Hostile.answer(app, FAST, () -> post(CRDS, definition(plural,
                "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":{" + properties + "}}}}")));
        return Hostile.refused(response, 422, "Invalid").path("message").asText();
    }

    @Test
    void aLongTextAgainstALargePatternIsRefusedNotMatchedForAMinute() throws Exception {
        HttpResponse<byte[]> created = post(CRDS, definition("slows", "{\"type\":\"object\",\"properties\":{\"spec\":"
                + "{\"type\":\"string\",\"pattern\":\"a{0,1000}b\"}}}"));
        assertEquals(201, created.statusCode(), new String(created.body(), StandardCharsets.UTF_8));
        String body = "{\"apiVersion\":\"slows.hostile.test/v1\",\"kind\":\"Slows\",\"metadata\":{\"name\":\"slow\"},"
                + "\"spec\":\"" + "a".repeat(1_000_000) + "\"}";
        HttpResponse<byte[]> response = Hostile.answer(app, FAST,
                () -> post("/apis/slows.hostile.test/v1/namespaces/default/slows", body));
        JsonNode status = Hostile.refused(response, 422, "Invalid");
        assertEquals("FieldValueForbidden", status.path("details").path("causes").get(0).path("reason").asText());
    }

    @Test
    void aLongKeyOverMillionsOfBadElementsIsOneSmallStatus() throws Exception {
        StringBuilder body = new StringBuilder(3_000_000).append("{\"apiVersion\":\"lists.hostile.test/v1\",\"kind\":"
                + "\"Lists\",\"metadata\":{\"name\":\"long-key\"},\"spec\":{\"").append("k".repeat(50_000)).append("\":[");
        for (int i = 0; i < 1_400_000; i++) {
            body.append(i == 0 ? "0" : ",0");
        }
        body.append("]}}");
        HttpResponse<byte[]> response = Hostile.answer(app, FAST,
                () -> post("/apis/lists.hostile.test/v1/namespaces/default/lists", body.toString()));
        JsonNode status = Hostile.refused(response, 422, "Invalid");
        assertTrue(status.path("message").asText().endsWith("more errors]"), status.path("message").asText());
    }

    @Test
    void aQuarterOfAMillionUnknownFieldsUnderStrictValidationAreOneSmallStatus() throws Exception {
        StringBuilder fields = new StringBuilder();
        for (int i = 0; i < 250_000; i++) {
            fields.append(i == 0 ? "" : ",").append("\"f").append(i).append("\":0");
        }
        String body = "{\"apiVersion\":\"lists.hostile.test/v1\",\"kind\":\"Lists\",\"metadata\":{\"name\":\"unknown\"},"
                + "\"strict\":{" + fields + "}}";
        HttpResponse<byte[]> response = Hostile.answer(app, BIG,
                () -> post("/apis/lists.hostile.test/v1/namespaces/default/lists?fieldValidation=Strict", body));
        JsonNode status = Hostile.refused(response, 400, "BadRequest");
        assertTrue(status.path("message").asText().contains("more unknown fields"), status.toString());
    }

    @Test
    void aQuarterOfAMillionBadLabelKeysAreOneSmallStatus() throws Exception {
        StringBuilder labels = new StringBuilder();
        for (int i = 0; i < 250_000; i++) {
            labels.append(i == 0 ? "" : ",").append("\"-").append(Integer.toString(i, 36)).append("\":\"\"");
        }
        String body = "{\"metadata\":{\"name\":\"labels\",\"labels\":{" + labels + "}}}";
        HttpResponse<byte[]> response = Hostile.answer(app, BIG,
                () -> post("/api/v1/namespaces/default/configmaps", body));
        JsonNode status = Hostile.refused(response, 422, "Invalid");
        assertEquals(32, status.path("details").path("causes").size());
        assertTrue(status.path("message").asText().endsWith(" more errors]"), status.path("message").asText());
    }

    @Test
    void aMegabyteFieldNameIsABadRequest() throws Exception {
        // the parser refuses a name over 50,000 characters (Jackson's StreamReadConstraints) before anything reads it
        HttpResponse<byte[]> json = Hostile.answer(app, FAST, () -> post(
                "/api/v1/namespaces/default/configmaps?fieldValidation=Strict",
                "{\"metadata\":{\"name\":\"big-field\"},\"" + "x".repeat(1_000_000) + "\":1}"));
        Hostile.refused(json, 400, "BadRequest");
    }

    @Test
    void namesAsLongAsTheParserTakesAreCutInTheAnswer() throws Exception {
        String name = "x".repeat(49_000);
        HttpResponse<byte[]> unknown = Hostile.answer(app, FAST, () -> post(
                "/api/v1/namespaces/default/configmaps?fieldValidation=Strict",
                "{\"metadata\":{\"name\":\"big-field\"},\"" + name + "\":1}"));
        Hostile.refused(unknown, 400, "BadRequest");
        StringBuilder labels = new StringBuilder();
        StringBuilder data = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            labels.append(i == 0 ? "" : ",").append("\"-").append(i).append(name).append("\":\"").append(name, 0, 64)
                    .append('"');
            data.append(i == 0 ? "" : ",").append("\"!").append(i).append(name).append("\":\"v\"");
        }
        HttpResponse<byte[]> invalid = Hostile.answer(app, FAST, () -> post("/api/v1/namespaces/default/configmaps",
                "{\"metadata\":{\"name\":\"-" + name + "\",\"labels\":{" + labels + "}},\"data\":{" + data + "}}"));
        JsonNode status = Hostile.refused(invalid, 422, "Invalid");
        assertEquals(32, status.path("details").path("causes").size(), status.toString());
    }

    @Test
    void deeplyNestedJsonIsABadRequestNotAStackOverflow() throws Exception {
        for (int depth : new int[] {600, 1_500, 1_000_000}) {
            String nested = "[".repeat(depth) + "]".repeat(depth);
            HttpResponse<byte[]> response = Hostile.answer(app, FAST, () -> post(
                    "/apis/lists.hostile.test/v1/namespaces/default/lists", "{\"apiVersion\":\"lists.hostile.test/v1\","
                            + "\"kind\":\"Lists\",\"metadata\":{\"name\":\"deep\"},\"loose\":{\"x\":" + nested + "}}"));
            Hostile.refused(response, 400, "BadRequest");
        }
        String nested = "{\"a\":".repeat(400) + "1" + "}".repeat(400);
        HttpResponse<byte[]> allowed = Hostile.answer(app, FAST, () -> post(
                "/apis/lists.hostile.test/v1/namespaces/default/lists?fieldValidation=Strict",
                "{\"apiVersion\":\"lists.hostile.test/v1\",\"kind\":\"Lists\",\"metadata\":{\"name\":\"deep-enough\"},"
                        + "\"loose\":" + nested + "}"));
        assertEquals(201, allowed.statusCode(), new String(allowed.body(), StandardCharsets.UTF_8));
    }

    /** A definition whose one field's pattern is {@code pattern} (JSON-escaped): refused, 422, fast. */
    private static JsonNode refusedDefinition(String plural, String pattern) throws Exception {
        HttpResponse<byte[]> response = Hostile.answer(app, FAST, () -> post(CRDS, definition(plural,
                "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"string\",\"pattern\":\"" + pattern + "\"}}}")));
        return Hostile.refused(response, 422, "Invalid");
    }

    private static String definition(String plural, String schema) {
        String kind = Character.toUpperCase(plural.charAt(0)) + plural.substring(1);
        return "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":\""
                + plural + "." + plural + ".hostile.test\"},\"spec\":{\"group\":\"" + plural + ".hostile.test\",\"scope\":"
                + "\"Namespaced\",\"names\":{\"plural\":\"" + plural + "\",\"kind\":\"" + kind + "\"},\"versions\":[{\"name\":"
                + "\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":" + schema + "}}]}}";
    }

    private static HttpResponse<byte[]> postYaml(String path, String body) throws Exception {
        return app.send(app.request(path).header("Content-Type", "application/yaml")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static HttpResponse<byte[]> post(String path, String body) throws Exception {
        return app.send(app.request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
