package io.watchgate.crd;

import com.google.re2j.PatternSyntaxException;
import java.util.HashSet;
import java.util.Set;

/**
 * What one CustomResourceDefinition's patterns may cost together. Each is bounded on its own
 * ({@link SchemaPatterns}), but a definition of 3 MiB holds tens of thousands of them: their distinct texts
 * are bounded in length (parsing costs) and in program size (compiling them, as validating an object may, costs
 * time and memory), so that checking a definition, and validating an object against it, stays a matter of
 * milliseconds and megabytes.
 */
final class PatternBudget {

    /** The distinct patterns of a definition: real ones have a few dozen, a few hundred at most. */
    static final int MAX_PATTERNS = 500;
    /** The distinct patterns of a definition, in characters in all. */
    static final long MAX_LENGTH = 32 * 1024;
    /** The distinct patterns of a definition, in Go's instructions in all (about 5 MB of RE2J program). */
    static final long MAX_INSTRUCTIONS = 50_000;

    private final Set<String> seen = new HashSet<>();
    private long length;
    private long instructions;
    private boolean spent;

    /**
     * Checks {@code pattern} (once per distinct text) and charges it to the definition. Once the budget is spent,
     * the patterns after are not read at all: the definition is refused already.
     *
     * @throws PatternSyntaxException when it is not RE2, too large on its own, or more than is left
     */
    void charge(String pattern) {
        if (spent || !seen.add(pattern)) {
            return;
        }
        length += pattern.length();
        if (seen.size() > MAX_PATTERNS) {
            throw spent("the definition has more than " + MAX_PATTERNS + " distinct patterns");
        }
        if (length > MAX_LENGTH) {
            throw spent("the definition's patterns are longer than " + MAX_LENGTH + " characters in all");
        }
        instructions += SchemaPatterns.checkedSize(pattern);
        if (instructions > MAX_INSTRUCTIONS) {
            throw spent("the definition's patterns would compile to more than " + MAX_INSTRUCTIONS
                    + " instructions in all");
        }
    }

    private PatternSyntaxException spent(String problem) {
        spent = true;
        return new PatternSyntaxException(problem, "");
    }
}
