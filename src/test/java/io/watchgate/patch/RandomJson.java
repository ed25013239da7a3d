package io.watchgate.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Random;

/** Random JSON documents for the patch engines' property tests, from a seeded Random so a failure replays. */
final class RandomJson {

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Random random;

    RandomJson(Random random) {
        this.random = random;
    }

    /** A name from a small pool, so that documents and patches share members. */
    String name() {
        return "f" + random.nextInt(6);
    }

    /** Any JSON value nested at most {@code depth} deep; {@code nulls} says whether null may appear. */
    JsonNode value(int depth, boolean nulls) {
        int kind = random.nextInt(depth > 0 ? 7 : 5);
        return switch (kind) {
            case 0 -> nulls ? NODES.nullNode() : NODES.booleanNode(random.nextBoolean());
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(random.nextInt(5));
            case 3 -> NODES.textNode("s" + random.nextInt(5));
            case 4 -> NODES.numberNode(random.nextInt(3) - 1);
            case 5 -> array(depth - 1, nulls);
            default -> object(depth - 1, nulls);
        };
    }

    ObjectNode object(int depth, boolean nulls) {
        ObjectNode object = NODES.objectNode();
        int size = random.nextInt(5);
        for (int i = 0; i < size; i++) {
            object.set(name(), value(depth, nulls));
        }
        return object;
    }

    ArrayNode array(int depth, boolean nulls) {
        ArrayNode array = NODES.arrayNode();
        int size = random.nextInt(5);
        for (int i = 0; i < size; i++) {
            array.add(value(depth, nulls));
        }
        return array;
    }
}
