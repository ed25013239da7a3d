package io.watchgate.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Unknown-field warnings are cut as kube-apiserver cuts Warning headers: each, and all together. */
class WarningBoundsTest {

    @Test
    void eachWarningAndAllTogetherAreBoundedAndTheRestCounted() {
        List<String> messages = new ArrayList<>();
        for (int i = 0; i < FieldChecks.MAX_REPORTED; i++) {
            messages.add("unknown field \"" + "k".repeat(50_000) + i + "\"");
        }
        List<String> warnings = FieldChecks.cut(messages, 249_900);
        int total = warnings.stream().mapToInt(String::length).sum();
        assertTrue(total <= FieldChecks.MAX_WARNINGS_CHARS, "warnings of " + total + " characters");
        warnings.forEach(warning -> assertTrue(warning.length() <= FieldChecks.MAX_WARNING_CHARS, warning));
        String last = warnings.get(warnings.size() - 1);
        assertEquals("and " + (250_000 - (warnings.size() - 1)) + " more unknown fields", last);
    }

    @Test
    void aFewShortWarningsAreSentWhole() {
        assertEquals(List.of("unknown field \"spec.a\"", "unknown field \"spec.b\""),
                FieldChecks.cut(List.of("unknown field \"spec.a\"", "unknown field \"spec.b\""), 0));
    }
}
