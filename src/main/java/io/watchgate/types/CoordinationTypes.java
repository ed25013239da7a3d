package io.watchgate.types;

import java.util.List;
import java.util.Map;

/**
 * The built-in type of coordination.k8s.io/v1: the Lease, by which candidates elect a leader (client-go's, fabric8's
 * and Java Operator SDK's leader election) and kubelets send their heartbeats. A PUT creates a missing lease and must
 * name the resourceVersion it replaces, as kube's lease strategy says: taking a lease is a compare-and-swap.
 */
public final class CoordinationTypes {

    public static final String GROUP = "coordination.k8s.io";

    public static final ResourceType LEASES = new ResourceType(GROUP, "v1", "Lease", "leases", "lease", true,
            List.of(), NameRule.DNS1123_SUBDOMAIN, Map.of(), true, Map.of("metadata.ownerReferences", "uid"),
            ResourceType.ALL_VERBS, new UpdateStrategy(true, false));

    public static final List<ResourceType> ALL = List.of(LEASES);

    private CoordinationTypes() {
    }
}
