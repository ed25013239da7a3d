package io.watchgate.crd;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code pattern}s of CRD schemas, compiled once. They are Go regular expressions in Kubernetes, so they are
 * read as RE2 here too: the same syntax (no backreferences or lookaround), and matching in linear time, so no
 * pattern can hold a thread however it is written. Go also refuses expressions that compile too large; so does
 * this, before compiling, because RE2J has no such limit and nested counted repetitions
 * ({@code ((a{1000}){1000}){1000}}) would fill the heap.
 */
final class SchemaPatterns {

    /** Program size allowed per pattern, in the units of {@link #estimatedSize}: below Go's (about 3.3M). */
    static final long MAX_SIZE = 200_000;
    /** The cache holds patterns of at most this much program in all, then starts over. */
    private static final long MAX_CACHED_SIZE = 4_000_000;

    private static final Map<String, Pattern> COMPILED = new ConcurrentHashMap<>();
    private static final AtomicLong CACHED_SIZE = new AtomicLong();

    private SchemaPatterns() {
    }

    /** @throws PatternSyntaxException for a pattern that is not RE2, or too large to compile */
    static Pattern compile(String pattern) {
        Pattern compiled = COMPILED.get(pattern);
        if (compiled != null) {
            return compiled;
        }
        long size = estimatedSize(pattern);
        if (size > MAX_SIZE) {
            throw new PatternSyntaxException("expression too large", pattern);
        }
        compiled = Pattern.compile(pattern);
        if (CACHED_SIZE.addAndGet(size) > MAX_CACHED_SIZE) {
            COMPILED.clear();
            CACHED_SIZE.set(size);
        }
        COMPILED.put(pattern, compiled);
        return compiled;
    }

    /**
     * An upper estimate of the compiled program's size: atoms count one, a group the sum of its parts, and a
     * counted repetition multiplies what it repeats, so nesting multiplies. Saturates instead of overflowing.
     */
    static long estimatedSize(String pattern) {
        Deque<long[]> groups = new ArrayDeque<>(); // per open group: {size so far, size of its last atom}
        long[] current = {0, 0};
        int i = 0;
        int n = pattern.length();
        while (i < n) {
            char c = pattern.charAt(i);
            long atom = -1;
            switch (c) {
                case '\\' -> {
                    boolean braced = i + 2 < n && "pPx".indexOf(pattern.charAt(i + 1)) >= 0
                            && pattern.charAt(i + 2) == '{';
                    int close = braced ? pattern.indexOf('}', i + 2) : -1;
                    i = braced ? (close < 0 ? n : close + 1) : i + 2;
                    atom = 1;
                }
                case '[' -> {
                    i = endOfClass(pattern, i);
                    atom = 1;
                }
                case '(' -> {
                    groups.push(current);
                    current = new long[] {0, 0};
                    i++;
                }
                case ')' -> {
                    long group = Math.max(1, current[0]);
                    current = groups.isEmpty() ? new long[] {0, 0} : groups.pop();
                    atom = group;
                    i++;
                }
                case '{' -> {
                    int close = pattern.indexOf('}', i);
                    long count = close < 0 ? -1 : repetition(pattern.substring(i + 1, close));
                    if (count < 0) {
                        atom = 1; // a literal brace
                        i++;
                    } else {
                        current[0] = saturate(current[0] - current[1] + saturate(current[1], count));
                        current[1] = saturate(current[1], count);
                        i = close + 1;
                    }
                }
                case '*', '+', '?' -> {
                    current[0] = saturate(current[0] + current[1], 1);
                    i++;
                }
                default -> {
                    atom = 1;
                    i++;
                }
            }
            if (atom >= 0) {
                current[0] = saturate(current[0] + atom, 1);
                current[1] = atom;
            }
        }
        long total = current[0];
        while (!groups.isEmpty()) {
            total = saturate(total + groups.pop()[0], 1);
        }
        return total;
    }

    private static int endOfClass(String pattern, int start) {
        int i = start + 1;
        if (i < pattern.length() && pattern.charAt(i) == '^') {
            i++;
        }
        if (i < pattern.length() && pattern.charAt(i) == ']') {
            i++;
        }
        while (i < pattern.length() && pattern.charAt(i) != ']') {
            i += pattern.charAt(i) == '\\' ? 2 : 1;
        }
        return Math.min(i + 1, pattern.length());
    }

    /** The largest count of {@code n}, {@code n,} or {@code n,m} (RE2 allows at most 1000); -1 if not one. */
    private static long repetition(String inside) {
        if (!inside.matches("\\d{1,4}(,\\d{0,4})?")) {
            return -1;
        }
        String[] bounds = inside.split(",", -1);
        long low = Long.parseLong(bounds[0]);
        long high = bounds.length == 1 ? low : bounds[1].isEmpty() ? low + 1 : Long.parseLong(bounds[1]);
        return Math.max(1, Math.max(low, high));
    }

    private static long saturate(long value, long factor) {
        if (value <= 0 || factor <= 0) {
            return Math.max(value, 0);
        }
        return value > Long.MAX_VALUE / 4 / factor ? Long.MAX_VALUE / 4 : value * factor;
    }

    private static long saturate(long value) {
        return Math.min(Math.max(value, 0), Long.MAX_VALUE / 4);
    }
}
