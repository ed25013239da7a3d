package io.watchgate.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Patterns compile as Go's RE2 compiles them, and one that would compile too large or too deep is refused before
 * it compiles, however its syntax hides the repetitions: the guard measures RE2J's own parse.
 */
class SchemaPatternsTest {

    /** Patterns seen in real CustomResourceDefinitions, and RE2 syntax that is easy to misread. */
    private static final String[] ADMITTED = {
        "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "^.{0,1000}$", "\\p{L}+\\x{41}", "^(\\d+)(\\.\\d+){0,3}$", "[]a]{2,}",
        "a{,5}", "^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
        "^([0-9]{1,5}(h|m|s|ms)){1,4}$", "^(([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])\\.){3}"
                + "([0-9]|[1-9][0-9]|1[0-9]{2}|2[0-4][0-9]|25[0-5])$",
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$",
        "\\Q(a{1000}){1000}\\E", "[(](a{10}){10}", "(?i)(?P<name>ab{3,7}){2}", "(?s:.{1,100})", "[[:alpha:]]{1,63}",
        "a{1000}", "(a{2}){1000}",
    };

    /** Each compiles to far more than the bound (most would fill any heap), each hiding it another way. */
    private static final String[] TOO_LARGE = {
        "((a{1000}){1000}){1000}", "(a{1000}){1000}", "((((((((a{9}){9}){9}){9}){9}){9}){9}){9})",
        "(\\Q(\\E(a{1000}){1000})", "\\Q(\\E(a{1000}){1000}", "[(](a{1000}){1000}", "[]a](a{1000}){1000}",
        "[^]\\]](a{1000}){1000}", "(?i)(a{1000}){1000}", "(?P<n>a{1000}){1000}", "(?:a{1000}){1000}",
        "(\\pL{1000}){1000}", "(a{1000}|b){1000}", "((a{0,1000}){0,1000})", "(a{1000,}){1000}",
        "(?:(?:(?:a{100}){100}){100})", "(\\x{28}a{1000}){1000}", "(\\((a{1000})){1000}", "((?i)a{1000}){1000}",
        "(\\Qab\\E{1000}){1000}", "(.{1000}){200}", "(\\d{1000}){1000}",
    };

    @Test
    void everydayPatternsAndTrickySyntaxAreAdmitted() {
        for (String pattern : ADMITTED) {
            assertTrue(SchemaPatterns.checkedSize(pattern) <= SchemaPatterns.MAX_INSTRUCTIONS, pattern);
            SchemaPatterns.compile(pattern);
        }
    }

    @Test
    void nestedCountedRepetitionsAreRefusedBeforeTheyCompileHoweverTheyAreWritten() {
        // compiling any of these would fill the heap: refusing them is what keeps this test alive
        for (String pattern : TOO_LARGE) {
            PatternSyntaxException refused = assertThrows(PatternSyntaxException.class,
                    () -> SchemaPatterns.compile(pattern), pattern);
            assertTrue(refused.getDescription().contains("too large"), pattern + ": " + refused.getDescription());
        }
    }

    @Test
    void aQuotedParenthesisIsALiteralNotAGroup() {
        // the first is one group repeated: its size is the group's, 1000 times; the second repeats ")" alone
        assertTrue(SchemaPatterns.checkedSize("\\Q)\\E{1000}") < 2_100);
        assertThrows(PatternSyntaxException.class, () -> SchemaPatterns.checkedSize("(\\Q)\\Ea{100}){1000}"));
    }

    @Test
    void whatIsNotRe2IsRefused() {
        for (String pattern : new String[] {"(", "a**", "(a)\\1", "(?=a)", "a{1001}", "[z-a]", "\\", "(?P<n>a)(?P<n>b)",
            "(a{1000}\\E){1000}", "\\Q\\E{2}(x)"}) {
            assertThrows(PatternSyntaxException.class, () -> SchemaPatterns.compile(pattern), pattern);
        }
    }

    @Test
    void deepNestingAndLongPatternsAreRefusedWithoutOverflowingTheStack() {
        int levels = SchemaPatterns.MAX_LENGTH / 2 - 1;
        String deep = "(".repeat(levels) + "a" + ")".repeat(levels);
        PatternSyntaxException refused = assertThrows(PatternSyntaxException.class, () -> SchemaPatterns.compile(deep));
        assertTrue(refused.getDescription().contains("nests too deeply"), refused.getDescription());
        String atTheLimit = "(".repeat(SchemaPatterns.MAX_HEIGHT / 2) + "a" + ")".repeat(SchemaPatterns.MAX_HEIGHT / 2);
        SchemaPatterns.compile(atTheLimit);
        assertThrows(PatternSyntaxException.class, () -> SchemaPatterns.compile("a".repeat(SchemaPatterns.MAX_LENGTH + 1)));
    }

    /**
     * Random patterns from RE2's syntax, easy to misread (quoting, classes with brackets, escapes, flags, named
     * groups) around counted repetitions: whatever the guard admits compiles to a program within its bound (RE2J's
     * real instruction count, read off the compiled program), so nothing it admits can fill the heap.
     */
    @Test
    void whateverTheGuardAdmitsCompilesWithinItsBound() throws Exception {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        int admitted = 0;
        for (int i = 0; i < 3000; i++) {
            String pattern = randomPattern(random, 0);
            long measured;
            try {
                measured = SchemaPatterns.checkedSize(pattern);
            } catch (PatternSyntaxException refused) {
                continue;
            }
            admitted++;
            int instructions = instructions(Pattern.compile(pattern));
            assertTrue(instructions <= measured + 8, "seed " + seed + ": " + pattern + " measured " + measured
                    + " but compiled to " + instructions + " instructions");
        }
        assertTrue(admitted > 300, "seed " + seed + ": only " + admitted + " random patterns were admitted");
    }

    @Test
    void theMeasureIsRe2jsOwnProgramSizeForPlainRepetitions() throws Exception {
        for (String pattern : new String[] {"a{1000}", "(a{10}){10}", "x{0,500}", "(?:ab|cd){3,9}"}) {
            long measured = SchemaPatterns.checkedSize(pattern);
            int instructions = instructions(Pattern.compile(pattern));
            assertTrue(instructions <= measured + 8 && measured <= 2L * instructions + 8, pattern + ": measured "
                    + measured + ", compiled " + instructions);
        }
        assertEquals(1, SchemaPatterns.checkedSize("a"));
    }

    private static String randomPattern(Random random, int depth) {
        StringBuilder pattern = new StringBuilder();
        int atoms = 1 + random.nextInt(4);
        for (int i = 0; i < atoms; i++) {
            pattern.append(switch (random.nextInt(depth > 3 ? 8 : 12)) {
                case 0 -> "a";
                case 1 -> "\\Q" + pick(random, "(", ")", "{2}", "[", "\\", "a|b") + "\\E";
                case 2 -> pick(random, "[]a]", "[^]]", "[(]", "[)]", "[\\]]", "[[:digit:]]", "[a-z\\d]", "[{]");
                case 3 -> pick(random, "\\(", "\\)", "\\{", "\\x{28}", "\\pL", "\\p{Greek}", "\\d", ".");
                case 4 -> pick(random, "|", "^", "$", "\\b");
                case 5 -> pick(random, "{", "}", "{,3}", "a{2");
                case 6 -> "*";
                case 7 -> "?";
                case 8 -> "(" + randomPattern(random, depth + 1) + ")";
                case 9 -> "(?:" + randomPattern(random, depth + 1) + ")";
                case 10 -> "(?i)" + randomPattern(random, depth + 1);
                default -> "(?P<g" + random.nextInt(1_000_000) + ">" + randomPattern(random, depth + 1) + ")";
            });
            if (random.nextInt(3) == 0) {
                int low = random.nextInt(3) == 0 ? random.nextInt(1001) : random.nextInt(20);
                pattern.append(random.nextBoolean() ? "{" + low + "}"
                        : random.nextBoolean() ? "{" + low + ",}" : "{" + low + "," + (low + random.nextInt(100)) + "}");
            }
        }
        return pattern.toString();
    }

    private static String pick(Random random, String... choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** The number of instructions RE2J compiled {@code pattern} to, read from its program. */
    static int instructions(Pattern pattern) throws Exception {
        Field re2 = Pattern.class.getDeclaredField("re2");
        re2.setAccessible(true);
        Object compiled = re2.get(pattern);
        Field prog = compiled.getClass().getDeclaredField("prog");
        prog.setAccessible(true);
        Object program = prog.get(compiled);
        Method count = program.getClass().getDeclaredMethod("numInst");
        count.setAccessible(true);
        return (int) count.invoke(program);
    }
}
