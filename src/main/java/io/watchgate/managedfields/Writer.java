package io.watchgate.managedfields;

/**
 * Who makes a write, as its managedFields entry names it, and through which subresource ("" for the object).
 */
public record Writer(String manager, String subresource) {

    /** What the server writes of its own accord (seeds, bootstrap policy, its controllers). */
    public static final Writer SERVER = new Writer("watchgate", "");

    public Writer through(String changedSubresource) {
        return new Writer(manager, changedSubresource);
    }
}
