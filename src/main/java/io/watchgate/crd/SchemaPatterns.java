package io.watchgate.crd;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code pattern}s of CRD schemas, compiled. They are Go regular expressions in Kubernetes, so they are read
 * as RE2 here too: the same syntax (no backreferences or lookaround), and matching in linear time, so no pattern
 * can hold a thread however it is written. Go refuses an expression that would compile too large or nest too
 * deep; RE2J has no such limit (nested counted repetitions, {@code ((a{1000}){1000}){1000}}, fill any heap), so
 * this measures RE2J's own parse first ({@link ProgramSize}) and compiles only what is small. The bounds are
 * tighter than Go's (3.3 M instructions), which would take hundreds of megabytes here: an RE2J instruction takes
 * about 100 bytes. A program of {@link #MAX_INSTRUCTIONS} compiles in a few milliseconds.
 */
final class SchemaPatterns {

    /** A pattern longer than this is refused before it is parsed: RE2J's parse of long literals is quadratic. */
    static final int MAX_LENGTH = 2048;
    /** The program one pattern may compile to, in Go's instructions: {@code ^.{0,1000}$} takes about 2,000. */
    static final long MAX_INSTRUCTIONS = 20_000;
    /** As Go's {@code regexp/syntax} maxHeight: the parse tree's depth, which compiling recurses through. */
    static final int MAX_HEIGHT = 1000;
    /** The cache holds patterns of at most this many instructions in all (about 20 MB), then starts over. */
    private static final long MAX_CACHED_INSTRUCTIONS = 200_000;

    /** A compiled pattern and its size: matching a text costs about its length times that many steps. */
    record Compiled(Pattern pattern, long instructions) {
    }

    private static final Map<String, Compiled> COMPILED = new ConcurrentHashMap<>();
    private static final AtomicLong CACHED = new AtomicLong();

    private SchemaPatterns() {
    }

    /**
     * The program {@code pattern} compiles to, in Go's instructions, without compiling it.
     *
     * @throws PatternSyntaxException when it is not RE2, or too long, too large or too deep to compile
     */
    static long checkedSize(String pattern) {
        if (pattern.length() > MAX_LENGTH) {
            throw new PatternSyntaxException("expression longer than " + MAX_LENGTH + " characters", "");
        }
        ProgramSize.Measure measure = ProgramSize.of(pattern);
        if (measure.height() > MAX_HEIGHT) {
            throw new PatternSyntaxException("expression nests too deeply", "");
        }
        if (measure.instructions() > MAX_INSTRUCTIONS) {
            throw new PatternSyntaxException("expression too large", "");
        }
        return measure.instructions();
    }

    /** @throws PatternSyntaxException for a pattern that is not RE2, or too large to compile (as {@link #checkedSize}) */
    static Compiled compile(String pattern) {
        Compiled compiled = COMPILED.get(pattern);
        if (compiled != null) {
            return compiled;
        }
        long size = checkedSize(pattern);
        compiled = new Compiled(Pattern.compile(pattern), size);
        if (CACHED.addAndGet(size) > MAX_CACHED_INSTRUCTIONS) {
            COMPILED.clear();
            CACHED.set(size);
        }
        COMPILED.put(pattern, compiled);
        return compiled;
    }
}
