package io.watchgate.selector;

/** A label or field selector that does not parse; answered with 400 BadRequest. */
public final class SelectorException extends IllegalArgumentException {
    public SelectorException(String message) {
        super(message);
    }
}
