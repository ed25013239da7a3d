package io.watchgate.selector;

import static io.watchgate.patch.Linearity.assertLinear;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random label selectors, written out with random spacing, parse to what was meant and match random label sets as
 * a plain reference matcher does; parsing and matching grow linearly with the selector.
 */
class LabelSelectorPropertyTest {

    private static final long SEED = 4_211;
    private static final int CASES = 3000;
    private static final String[] KEYS = {"app", "tier", "example.com/owner", "n"};
    private static final String[] VALUES = {"web", "db", "1", "7", "", "a-b.c_d"};

    /** A requirement as the test means it, and as a reference reads it. */
    private record Meant(String key, String op, List<String> values) {

        String text(Random random) {
            String space = random.nextBoolean() ? " " : "";
            return switch (op) {
                case "exists" -> key;
                case "!" -> "!" + space + key;
                case "in", "notin" -> key + " " + op + space + "(" + String.join("," + space, values) + ")";
                default -> key + space + op + space + values.get(0);
            };
        }

        boolean matches(Map<String, String> labels) {
            String value = labels.get(key);
            return switch (op) {
                case "exists" -> value != null;
                case "!" -> value == null;
                case "=", "==", "in" -> value != null && values.contains(value);
                case "!=", "notin" -> value == null || !values.contains(value);
                case ">" -> isInteger(value) && Long.parseLong(value) > Long.parseLong(values.get(0));
                case "<" -> isInteger(value) && Long.parseLong(value) < Long.parseLong(values.get(0));
                default -> throw new IllegalStateException(op);
            };
        }

        private static boolean isInteger(String value) {
            return value != null && value.matches("-?[0-9]+");
        }
    }

    @Test
    void matchesAsTheReferenceDoes() {
        Random random = new Random(SEED);
        for (int i = 0; i < CASES; i++) {
            List<Meant> meant = new ArrayList<>();
            for (int n = 1 + random.nextInt(4); n > 0; n--) {
                meant.add(requirement(random));
            }
            StringBuilder text = new StringBuilder();
            for (Meant requirement : meant) {
                text.append(text.length() == 0 ? "" : random.nextBoolean() ? ", " : ",").append(requirement.text(random));
            }
            LabelSelector selector = LabelSelector.parse(text.toString());
            for (int j = 0; j < 5; j++) {
                Map<String, String> labels = labels(random);
                boolean expected = meant.stream().allMatch(requirement -> requirement.matches(labels));
                assertEquals(expected, selector.matches(labels), "seed " + SEED + ", case " + i + ": '" + text
                        + "' on " + labels);
            }
        }
    }

    @Test
    void parsingAndMatchingAreLinearInTheSelector() {
        assertLinear("parsing n requirements", n -> {
            StringBuilder text = new StringBuilder("k0");
            for (int i = 1; i < n; i++) {
                text.append(",k").append(i).append(i % 2 == 0 ? "=v" : " notin (a,b)");
            }
            return () -> LabelSelector.parse(text.toString());
        }, 800);
        Map<String, String> labels = Map.of("k", "v-last");
        assertLinear("matching an in of n values", n -> {
            StringBuilder text = new StringBuilder("k in (");
            for (int i = 0; i < n; i++) {
                text.append("v-").append(i).append(',');
            }
            LabelSelector selector = LabelSelector.parse(text.append("v-last)").toString());
            return () -> {
                for (int i = 0; i < 100_000; i++) {
                    selector.matches(labels);
                }
            };
        }, 1_000);
    }

    private static Meant requirement(Random random) {
        String key = KEYS[random.nextInt(KEYS.length)];
        String[] ops = {"exists", "!", "=", "==", "!=", "in", "notin", ">", "<"};
        String op = ops[random.nextInt(ops.length)];
        List<String> values = new ArrayList<>();
        if (op.equals(">") || op.equals("<")) {
            values.add(Integer.toString(random.nextInt(10)));
        } else if (op.equals("in") || op.equals("notin")) {
            for (int n = 1 + random.nextInt(3); n > 0; n--) {
                String value = VALUES[random.nextInt(VALUES.length)];
                values.add(value.isEmpty() && n == 1 && values.isEmpty() ? "web" : value); // "in ()" is refused
            }
        } else {
            values.add(VALUES[random.nextInt(VALUES.length)]);
        }
        return new Meant(key, op, values);
    }

    private static Map<String, String> labels(Random random) {
        Map<String, String> labels = new HashMap<>();
        for (String key : KEYS) {
            if (random.nextBoolean()) {
                labels.put(key, VALUES[random.nextInt(VALUES.length)]);
            }
        }
        return labels;
    }
}
