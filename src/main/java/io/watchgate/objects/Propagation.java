package io.watchgate.objects;

import io.watchgate.types.ResourceType;

/**
 * How a deletion treats the objects that name the deleted one as their owner, as DeleteOptions'
 * {@code propagationPolicy} says it: left in place without that reference (Orphan), deleted afterwards by the
 * garbage collector (Background), or deleted first, the owner waiting for those that block it (Foreground).
 */
public enum Propagation {
    ORPHAN("Orphan"),
    BACKGROUND("Background"),
    FOREGROUND("Foreground");

    /** The finalizer that holds an owner until its dependents are orphaned. */
    public static final String ORPHAN_FINALIZER = "orphan";
    /** The finalizer that holds an owner until its blocking dependents are gone. */
    public static final String FOREGROUND_FINALIZER = "foregroundDeletion";

    private final String policy;

    Propagation(String policy) {
        this.policy = policy;
    }

    /** The name the API gives it. */
    public String policy() {
        return policy;
    }

    /**
     * What a deletion of {@code type}'s objects does when neither the request nor the object says: Background,
     * as for most types; null for Events (core, or events.k8s.io's view of them), which the collector leaves alone
     * and which take no finalizer of its; Orphan for batch/v1 Jobs, whose pods kube keeps by default for backward compatibility.
     */
    static Propagation defaultFor(ResourceType type) {
        if (type.storageResource().equals("events")) {
            return null;
        }
        return type.equals(io.watchgate.types.WorkloadTypes.JOBS) ? ORPHAN : BACKGROUND;
    }

    /** The policy named {@code policy}, or null when it names none. */
    static Propagation named(String policy) {
        for (Propagation propagation : values()) {
            if (propagation.policy.equals(policy)) {
                return propagation;
            }
        }
        return null;
    }
}
