package io.watchgate.objects;

/**
 * What a DELETE may ask: preconditions on the object's uid and resourceVersion, and a dry run.
 *
 * @param uid             null for no precondition
 * @param resourceVersion null for no precondition
 */
public record DeleteOptions(String uid, String resourceVersion, boolean dryRun) {

    public static final DeleteOptions NONE = new DeleteOptions(null, null, false);
}
