package io.watchgate.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The schema walk against {@link ReferenceSchema} on random documents of random structural schemas: the same
 * problems at the same fields, the same pruning; and a walk that costs in proportion to the document.
 */
class StructuralSchemaPropertyTest {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String[] NAMES = {"a", "b", "c", "d"};
    private static final String[] PATTERNS = {"^a", "b$", "^[a-z]+$", "x"};

    @Test
    void findsWhatTheReferenceFindsAndPrunesWhatItPrunes() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int round = 0; round < 2000; round++) {
            ObjectNode schema = objectSchema(random, 0);
            ObjectNode document = (ObjectNode) document(random, schema, 0);
            ObjectNode expected = document.deepCopy();
            ReferenceSchema.Result reference = ReferenceSchema.apply(expected, schema);
            List<String> expectedFields = reference.problems();
            ObjectNode walked = document.deepCopy();
            Causes causes = new StructuralSchema(schema).apply(walked);
            String replay = "seed " + seed + ", round " + round + ": schema " + schema + ", document " + document;
            assertEquals(expected, walked, replay);
            assertEquals(expectedFields.size(), causes.kept().size() + causes.omitted(), replay + ": " + causes.kept());
            if (expectedFields.size() <= Causes.MAX) {
                List<String> fields = new ArrayList<>(causes.kept().stream().map(Cause::field).toList());
                List<String> sortedExpected = new ArrayList<>(expectedFields);
                fields.sort(null);
                sortedExpected.sort(null);
                assertEquals(sortedExpected, fields, replay);
            }
            UndeclaredFields undeclared = new StructuralSchema(schema).undeclaredFields(document, 1000);
            assertEquals(document, document.deepCopy(), replay); // untouched
            assertEquals(reference.pruned(), undeclared.first(), replay);
            assertEquals(reference.pruned().size(), undeclared.count(), replay);
        }
    }

    /**
     * A key of K characters over an array of K elements, each a problem: a walk that built each element's path as
     * text would cost K x K; this one costs K + K. Ten times the input may cost at most fifteen times as much
     * (fastest of five runs each, in one run of the test).
     */
    @Test
    void costGrowsLinearlyWithKeyLengthTimesElements() {
        ObjectNode schema = schema("{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\","
                + "\"additionalProperties\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"pattern\":\"^a\"}}}}}");
        ObjectNode small = keyOverIntegers(20_000);
        ObjectNode large = keyOverIntegers(200_000);
        StructuralSchema structural = new StructuralSchema(schema);
        long smallCost = fastest(() -> structural.apply(small.deepCopy()));
        long largeCost = fastest(() -> structural.apply(large.deepCopy()));
        assertTrue(largeCost <= 15 * smallCost, "10x input cost " + largeCost / 1000 + " us, against "
                + smallCost / 1000 + " us");
        Causes causes = structural.apply(large.deepCopy());
        assertEquals(Causes.MAX, causes.kept().size());
        assertEquals(200_000, causes.kept().size() + causes.omitted());
        assertTrue(causes.kept().get(0).field().length() <= Cause.MAX_FIELD_BYTES);
    }

    @Test
    void aLongRequiredListCostsWhatTheObjectHoldsAndCountsWhatItLacks() {
        ObjectNode schema = schema("{\"type\":\"object\",\"properties\":{\"items\":{\"type\":\"array\",\"items\":"
                + "{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}}}}");
        ArrayNode required = ((ObjectNode) schema.at("/properties/items/items")).putArray("required");
        for (int i = 0; i < 5_000; i++) {
            required.add("r" + i);
        }
        required.add("r1").add("r4999"); // a name twice counts twice, as the reference counts it
        ObjectNode document = JSON.objectNode();
        ArrayNode items = document.putArray("items");
        for (int i = 0; i < 100; i++) {
            ObjectNode item = items.addObject();
            for (int f = 0; f < 50; f++) {
                item.put("r" + (f * 2), f);
            }
        }
        ReferenceSchema.Result reference = ReferenceSchema.apply(document.deepCopy(), schema);
        Causes causes = new StructuralSchema(schema).apply(document);
        assertEquals(reference.problems().size(), causes.kept().size() + causes.omitted());
        assertEquals(reference.problems().subList(0, Causes.MAX), causes.kept().stream().map(Cause::field).toList());
    }

    @Test
    void matchingIsBoundedByTextLengthTimesProgramSize() {
        // a{0,1000}b over a megabyte of "a"s would take RE2J about a minute: the walk refuses it instead
        ObjectNode schema = schema("{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"string\","
                + "\"pattern\":\"a{0,1000}b\"}}}");
        ObjectNode document = JSON.objectNode().put("spec", "a".repeat(1_000_000));
        Causes causes = new StructuralSchema(schema).apply(document);
        assertEquals(1, causes.kept().size());
        assertEquals("FieldValueForbidden", causes.kept().get(0).reason());
        assertTrue(causes.kept().get(0).message().contains("too long to be matched"), causes.kept().get(0).message());
        // the same text against a pattern of a few instructions is matched
        ObjectNode simple = schema("{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"string\","
                + "\"pattern\":\"^a+$\"}}}");
        assertTrue(new StructuralSchema(simple).apply(JSON.objectNode().put("spec", "a".repeat(1_000_000))).isEmpty());
    }

    private static ObjectNode keyOverIntegers(int size) {
        ObjectNode document = JSON.objectNode();
        ArrayNode values = document.putObject("spec").putArray("k".repeat(size));
        for (int i = 0; i < size; i++) {
            values.add(i);
        }
        return document;
    }

    private static long fastest(Runnable run) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long start = System.nanoTime();
            run.run();
            best = Math.min(best, System.nanoTime() - start);
        }
        return best;
    }

    private static ObjectNode objectSchema(Random random, int depth) {
        ObjectNode schema = JSON.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        for (String name : NAMES) {
            if (random.nextInt(3) == 0) {
                properties.set(name, anySchema(random, depth + 1));
            }
        }
        switch (random.nextInt(5)) {
            case 0 -> schema.set("additionalProperties", anySchema(random, depth + 1));
            case 1 -> schema.put("additionalProperties", true);
            case 2 -> schema.put("x-kubernetes-preserve-unknown-fields", true);
            default -> { }
        }
        if (random.nextInt(4) == 0) {
            schema.putArray("required").add(NAMES[random.nextInt(NAMES.length)]);
        }
        return schema;
    }

    private static ObjectNode anySchema(Random random, int depth) {
        ObjectNode schema = switch (random.nextInt(depth > 2 ? 5 : 7)) {
            case 0 -> stringSchema(random);
            case 1 -> numberSchema(random, random.nextBoolean() ? "integer" : "number");
            case 2 -> JSON.objectNode().put("type", "boolean");
            case 3 -> JSON.objectNode().put("x-kubernetes-int-or-string", true);
            case 4 -> {
                ObjectNode enumerated = JSON.objectNode().put("type", "string");
                enumerated.putArray("enum").add("x").add("y");
                yield enumerated;
            }
            case 5 -> {
                ObjectNode array = JSON.objectNode().put("type", "array");
                array.set("items", anySchema(random, depth + 1));
                if (random.nextBoolean()) {
                    array.put("minItems", random.nextInt(3));
                }
                if (random.nextBoolean()) {
                    array.put("maxItems", random.nextInt(4));
                }
                yield array;
            }
            default -> objectSchema(random, depth);
        };
        if (random.nextInt(4) == 0) {
            schema.put("nullable", true);
        }
        return schema;
    }

    private static ObjectNode stringSchema(Random random) {
        ObjectNode schema = JSON.objectNode().put("type", "string");
        if (random.nextBoolean()) {
            schema.put("minLength", random.nextInt(3));
        }
        if (random.nextBoolean()) {
            schema.put("maxLength", random.nextInt(5));
        }
        if (random.nextBoolean()) {
            schema.put("pattern", PATTERNS[random.nextInt(PATTERNS.length)]);
        }
        return schema;
    }

    private static ObjectNode numberSchema(Random random, String type) {
        ObjectNode schema = JSON.objectNode().put("type", type);
        if (random.nextBoolean()) {
            schema.put("minimum", random.nextInt(5) - 2);
            schema.put("exclusiveMinimum", random.nextBoolean());
        }
        if (random.nextBoolean()) {
            schema.put("maximum", new BigDecimal("2.5"));
            schema.put("exclusiveMaximum", random.nextBoolean());
        }
        return schema;
    }

    /** A value for {@code schema}, now and then a wrong one: of another type, null, or with undeclared fields. */
    private static JsonNode document(Random random, JsonNode schema, int depth) {
        int mutation = depth == 0 ? 12 : random.nextInt(12); // the object itself is always one
        if (mutation == 0 || depth > 6) {
            return anyValue(random);
        }
        if (mutation == 1) {
            return JSON.nullNode();
        }
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return random.nextBoolean() ? JSON.textNode("v") : JSON.numberNode(random.nextInt(9));
        }
        return switch (schema.path("type").asText("")) {
            case "string" -> JSON.textNode(randomText(random));
            case "integer" -> random.nextBoolean() ? JSON.numberNode(random.nextInt(7) - 3)
                    : JSON.numberNode(new BigDecimal(random.nextInt(7) - 3 + (random.nextBoolean() ? ".0" : ".5")));
            case "number" -> JSON.numberNode(new BigDecimal(random.nextInt(7) - 3 + ".5"));
            case "boolean" -> JSON.booleanNode(random.nextBoolean());
            case "array" -> {
                ArrayNode array = JSON.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(document(random, schema.get("items"), depth + 1));
                }
                yield array;
            }
            default -> {
                ObjectNode object = JSON.objectNode();
                for (String name : NAMES) {
                    JsonNode declared = schema.path("properties").get(name);
                    if (declared != null && random.nextInt(3) > 0) {
                        object.set(name, document(random, declared, depth + 1));
                    } else if (random.nextInt(5) == 0) {
                        JsonNode additional = schema.get("additionalProperties");
                        object.set(name + "x", additional != null && additional.isObject()
                                ? document(random, additional, depth + 1) : anyValue(random));
                    }
                }
                if (depth == 0 && random.nextBoolean()) {
                    object.put("kind", "Widget").putObject("metadata").put("name", "w");
                }
                yield object;
            }
        };
    }

    private static JsonNode anyValue(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> JSON.textNode(randomText(random));
            case 1 -> JSON.numberNode(random.nextInt(5));
            case 2 -> JSON.booleanNode(true);
            case 3 -> JSON.arrayNode().add(1).add("z");
            case 4 -> JSON.objectNode().put("q", 1);
            default -> JSON.nullNode();
        };
    }

    private static String randomText(Random random) {
        String[] texts = {"", "a", "ab", "b", "abc", "xyz", "x", "y", "aaaaaa", "Ab"};
        return texts[random.nextInt(texts.length)];
    }

    private static ObjectNode schema(String json) {
        try {
            return (ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
