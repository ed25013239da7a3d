package io.watchgate.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An object serialized before its commit, with a stand-in resourceVersion, gives byte for byte what serializing
 * it at commit would: wherever its resourceVersion was, or if it had none, or no metadata at all.
 */
class PrestampedTest {

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void theBytesAreWhatSerializingTheStampedTreeGives() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int i = 0; i < 300; i++) {
            ObjectNode tree = randomObject(random, 3);
            switch (random.nextInt(4)) {
                case 0 -> tree.remove("metadata");
                case 1 -> tree.putObject("metadata").put("name", "n" + i);
                case 2 -> tree.putObject("metadata").put("resourceVersion", "17").put("name", "n" + i);
                default -> { // a resourceVersion in the middle of metadata, as clients send it back
                    ObjectNode metadata = tree.putObject("metadata");
                    metadata.put("name", "n" + i).put("resourceVersion", "5").putObject("labels").put("a", "b");
                }
            }
            String before = tree.toString();
            Prestamped prestamped = Prestamped.of(mapper, tree, null);
            assertEquals(before, tree.toString(), "the tree is left as it was (seed " + seed + ")");

            long revision = 1 + random.nextInt(1_000_000);
            tree.withObject("/metadata").put("resourceVersion", Long.toString(revision));
            assertArrayEquals(mapper.writeValueAsBytes(tree), prestamped.at(revision), "seed " + seed + ": " + tree);
        }
    }

    @Test
    void metadataThatIsNotAnObjectIsLeftToTheCommit() {
        ObjectNode tree = mapper.createObjectNode().put("metadata", "text");
        assertNull(Prestamped.of(mapper, tree, null));
    }

    private ObjectNode randomObject(Random random, int depth) {
        ObjectNode node = mapper.createObjectNode();
        int fields = random.nextInt(6);
        for (int f = 0; f < fields; f++) {
            node.set("f" + random.nextInt(20), randomValue(random, depth - 1));
        }
        return node;
    }

    private JsonNode randomValue(Random random, int depth) {
        return switch (depth <= 0 ? random.nextInt(5) : random.nextInt(7)) {
            case 0 -> mapper.getNodeFactory().textNode("s\"\\\u00e9" + random.nextInt(100));
            case 1 -> mapper.getNodeFactory().numberNode(random.nextLong());
            case 2 -> mapper.getNodeFactory().numberNode(new BigDecimal("1.10"));
            case 3 -> mapper.getNodeFactory().booleanNode(random.nextBoolean());
            case 4 -> mapper.getNodeFactory().nullNode();
            case 5 -> randomObject(random, depth);
            default -> {
                var array = mapper.createArrayNode();
                for (int e = random.nextInt(4); e > 0; e--) {
                    array.add(randomValue(random, depth - 1));
                }
                yield array;
            }
        };
    }
}
