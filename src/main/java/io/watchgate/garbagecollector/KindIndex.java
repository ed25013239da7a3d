package io.watchgate.garbagecollector;

import io.watchgate.store.ObjectKey;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import java.util.HashMap;
import java.util.Map;

/**
 * Served types by group and kind, and by the resource the store files them under: how an owner reference, which
 * names a kind at some version, finds where its owner is filed. Rebuilt when the registry changes (a definition
 * added or gone); read from any thread, the commit's included.
 */
final class KindIndex {

    private record Snapshot(long generation, Map<String, ResourceType> byKind, Map<String, ResourceType> byResource) {
    }

    private final ResourceTypes types;
    private volatile Snapshot snapshot = new Snapshot(-1, Map.of(), Map.of());

    KindIndex(ResourceTypes types) {
        this.types = types;
    }

    /** The type of {@code kind} in {@code group}, at any version it is served at, or null. */
    ResourceType kind(String group, String kind) {
        return current().byKind().get(group + "/" + kind);
    }

    /** The type whose objects the store files under {@code resource}, or null. */
    ResourceType resource(String resource) {
        return current().byResource().get(resource);
    }

    /** Where the owner {@code reference} names is filed, seen from {@code dependent}; null when nowhere. */
    OwnerId resolve(OwnerReference reference, ObjectKey dependent) {
        ResourceType kind = kind(reference.group(), reference.kind());
        if (kind == null || (kind.namespaced() && dependent.namespace().isEmpty())) {
            return null;
        }
        return new OwnerId(reference.uid(),
                new ObjectKey(kind.storageResource(), kind.namespaced() ? dependent.namespace() : "", reference.name()));
    }

    private Snapshot current() {
        Snapshot known = snapshot;
        long generation = types.generation();
        if (known.generation() == generation) {
            return known;
        }
        Map<String, ResourceType> byKind = new HashMap<>();
        Map<String, ResourceType> byResource = new HashMap<>();
        for (ResourceType type : types.all()) {
            byKind.putIfAbsent(type.group() + "/" + type.kind(), type);
            if (!type.sharesStorage()) {
                byResource.putIfAbsent(type.resource(), type);
            }
        }
        Snapshot fresh = new Snapshot(generation, Map.copyOf(byKind), Map.copyOf(byResource));
        snapshot = fresh;
        return fresh;
    }
}
