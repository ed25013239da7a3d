package io.watchgate.crd;

import com.google.re2j.PatternSyntaxException;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * How large a program RE2J would compile a pattern into, and how deep its parse tree is, measured on RE2J's own
 * parse of it, before anything is compiled. A guard that reads the text itself must agree with RE2 on quoting
 * ({@code \Q(\E}), escapes, classes ({@code []a]}), flags and groups, or an attacker hides nested repetitions in
 * the difference; this one reads nothing itself, so there is no difference to hide in.
 *
 * <p>This is the one use of RE2J internals: its parser and parse tree are package-private. The size is Go's
 * ({@code regexp/syntax}, parse.go's calcSize): instructions, repetitions expanded, as compiling expands them.
 * Parsing does not expand repetitions, so it is cheap; it is what RE2J does first when it compiles anyway. An RE2J
 * upgrade that changes these internals fails {@code SchemaPatternsTest} (and every measure, loudly), never silently.
 */
@RegisterForReflection(classNames = { "com.google.re2j.Parser", "com.google.re2j.Regexp" })
final class ProgramSize {

    /** The flags {@code Pattern.compile(String)} parses with ({@code RE2.PERL}). */
    private static final int PERL_FLAGS = 212;

    private static final Method PARSE;
    private static final Field OP;
    private static final Field SUBS;
    private static final Field RUNES;
    private static final Field MIN;
    private static final Field MAX;

    static {
        try {
            Class<?> parser = Class.forName("com.google.re2j.Parser");
            Class<?> regexp = Class.forName("com.google.re2j.Regexp");
            PARSE = accessible(parser.getDeclaredMethod("parse", String.class, int.class));
            OP = accessible(regexp.getDeclaredField("op"));
            SUBS = accessible(regexp.getDeclaredField("subs"));
            RUNES = accessible(regexp.getDeclaredField("runes"));
            MIN = accessible(regexp.getDeclaredField("min"));
            MAX = accessible(regexp.getDeclaredField("max"));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("RE2J's parser is not as this class knows it: " + e, e);
        }
    }

    /** @param instructions Go's measure of the compiled program; height: of the parse tree, in nodes */
    record Measure(long instructions, int height) {
    }

    private ProgramSize() {
    }

    /** @throws PatternSyntaxException when RE2J does not parse {@code pattern} */
    static Measure of(String pattern) {
        Object root;
        try {
            root = PARSE.invoke(null, pattern, PERL_FLAGS);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof PatternSyntaxException syntax) {
                throw syntax;
            }
            throw new IllegalStateException("RE2J failed to parse a pattern", e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        try {
            return measure(root);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Post-order over the tree with a stack of its own: a deep tree is refused here, not by a StackOverflowError. */
    private static Measure measure(Object root) throws IllegalAccessException {
        Map<Object, long[]> done = new IdentityHashMap<>(); // node -> {size, height}
        Deque<Object> pending = new ArrayDeque<>();
        pending.push(root);
        while (!pending.isEmpty()) {
            Object node = pending.peek();
            Object[] subs = (Object[]) SUBS.get(node);
            boolean ready = true;
            if (subs != null) {
                for (Object sub : subs) {
                    if (sub != null && !done.containsKey(sub)) {
                        pending.push(sub);
                        ready = false;
                    }
                }
            }
            if (ready) {
                pending.pop();
                done.put(node, sizeAndHeight(node, subs, done));
            }
        }
        long[] measured = done.get(root);
        return new Measure(measured[0], (int) Math.min(Integer.MAX_VALUE, measured[1]));
    }

    private static long[] sizeAndHeight(Object node, Object[] subs, Map<Object, long[]> done)
            throws IllegalAccessException {
        long sum = 0;
        long height = 0;
        int count = 0;
        if (subs != null) {
            for (Object sub : subs) {
                if (sub != null) {
                    long[] measured = done.get(sub);
                    sum = saturated(sum + measured[0]);
                    height = Math.max(height, measured[1]);
                    count++;
                }
            }
        }
        long size = switch (((Enum<?>) OP.get(node)).name()) {
            case "LITERAL" -> ((int[]) RUNES.get(node)).length;
            case "CAPTURE", "STAR" -> saturated(2 + sum);
            case "PLUS", "QUEST" -> saturated(1 + sum);
            case "CONCAT" -> sum;
            case "ALTERNATE" -> saturated(sum + Math.max(0, count - 1));
            case "REPEAT" -> repeated(sum, MIN.getInt(node), MAX.getInt(node));
            default -> 1;
        };
        return new long[] {Math.max(1, size), height + 1};
    }

    /** Go's size of {@code sub{min,max}} ({@code max} -1 when unbounded). */
    private static long repeated(long sub, int min, int max) {
        if (max == -1) {
            return min == 0 ? saturated(2 + sub) : saturated(1 + product(min, sub));
        }
        return saturated(product(max, sub) + (max - min));
    }

    private static long product(long count, long size) {
        return count != 0 && size > Long.MAX_VALUE / 4 / count ? Long.MAX_VALUE / 4 : count * size;
    }

    private static long saturated(long size) {
        return Math.min(Math.max(size, 0), Long.MAX_VALUE / 4);
    }

    private static <T extends java.lang.reflect.AccessibleObject> T accessible(T member) {
        member.setAccessible(true);
        return member;
    }
}
