package io.watchgate.crd;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.re2j.PatternSyntaxException;
import org.junit.jupiter.api.Test;

/** Patterns compile as Go's RE2 compiles them, and one that would compile too large is refused first. */
class SchemaPatternsTest {

    @Test
    void everydayPatternsAreSmall() {
        for (String pattern : new String[] {"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "^.{0,1000}$", "\\p{L}+\\x{41}",
                "^(\\d+)(\\.\\d+){0,3}$", "[]a]{2,}", "a{,5}"}) {
            assertTrue(SchemaPatterns.estimatedSize(pattern) < 5_000, pattern);
            SchemaPatterns.compile(pattern);
        }
    }

    @Test
    void nestedCountedRepetitionsAreRefusedBeforeTheyCompile() {
        // compiling the first would fill the heap: refusing it is what keeps this test alive
        assertThrows(PatternSyntaxException.class, () -> SchemaPatterns.compile("((a{1000}){1000}){1000}"));
        assertThrows(PatternSyntaxException.class, () -> SchemaPatterns.compile("(a{1000}){1000}"));
        assertThrows(PatternSyntaxException.class, () -> SchemaPatterns.compile("((((((((a{9}){9}){9}){9}){9}){9}){9}){9})"));
        assertTrue(SchemaPatterns.estimatedSize("(a{100}){100}") <= SchemaPatterns.MAX_SIZE);
    }
}
