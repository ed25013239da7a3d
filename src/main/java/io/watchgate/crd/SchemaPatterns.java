package io.watchgate.crd;

import com.google.re2j.Pattern;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code pattern}s of CRD schemas, compiled once. They are Go regular expressions in Kubernetes, so they are
 * read as RE2 here too: the same syntax (no backreferences or lookaround), and matching in linear time, so no
 * pattern can hold a thread however it is written.
 */
final class SchemaPatterns {

    /** Patterns come from definitions, which administrators write: a bound keeps a flood of them harmless. */
    private static final int MAX_CACHED = 4096;
    private static final Map<String, Pattern> COMPILED = new ConcurrentHashMap<>();

    private SchemaPatterns() {
    }

    /** @throws com.google.re2j.PatternSyntaxException for a pattern that is not RE2 */
    static Pattern compile(String pattern) {
        Pattern compiled = COMPILED.get(pattern);
        if (compiled == null) {
            compiled = Pattern.compile(pattern);
            if (COMPILED.size() >= MAX_CACHED) {
                COMPILED.clear();
            }
            COMPILED.put(pattern, compiled);
        }
        return compiled;
    }
}
