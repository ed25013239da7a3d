package io.watchgate.selector;

/** A selector, or a part of one, as an error message quotes it: a query may be 128 KiB long, the answer is short. */
final class Quoted {

    private static final int MAX_CHARS = 256;

    private Quoted() {
    }

    static String of(String text) {
        return text.length() <= MAX_CHARS ? text
                : text.substring(0, MAX_CHARS) + "... (" + text.length() + " characters)";
    }
}
