package io.watchgate.types;

/**
 * What a PUT of a type may do beyond replacing an object that exists, as kube's registry strategy of the type says.
 *
 * @param allowCreateOnUpdate      a PUT of an object that does not exist creates it (201), if the user may create
 *                                 it: leader election and event recorders write by PUT whether or not it exists
 * @param allowUnconditionalUpdate a PUT may leave out {@code metadata.resourceVersion} and replace whatever is
 *                                 stored; without it, one that does is 422 (a lease must never be taken blindly)
 */
public record UpdateStrategy(boolean allowCreateOnUpdate, boolean allowUnconditionalUpdate) {

    /** Most types': a PUT replaces an object that exists, with or without a resourceVersion. */
    public static final UpdateStrategy REPLACE = new UpdateStrategy(false, true);

    /** Custom resources' and their definitions': a PUT replaces an object that exists, at the resourceVersion named. */
    public static final UpdateStrategy CONDITIONAL = new UpdateStrategy(false, false);
}
