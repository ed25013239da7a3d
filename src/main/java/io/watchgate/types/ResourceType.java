package io.watchgate.types;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A served type, as data: everything the API needs to route, name, validate and select its objects.
 *
 * @param fieldLabels field selector labels beyond metadata.name and metadata.namespace, each mapped to the
 *                    JSON pointer of the field it reads
 * @param patchMergeKeys for strategic merge patch: JSON paths (dot-separated, from the object's root) of
 *                    lists merged by a key field, mapped to that key; empty for types without a strategy
 * @param verbs       the verbs the type serves, named as discovery names them
 * @param updates     what a PUT may do beyond replacing an object that exists
 * @param subresources what the type serves beside its objects
 * @param sharedStorage how the objects are kept when another type's storage holds them (null: in their own)
 */
public record ResourceType(
        String group,
        String version,
        String kind,
        String plural,
        String singular,
        boolean namespaced,
        List<String> shortNames,
        NameRule nameRule,
        Map<String, String> fieldLabels,
        boolean strategicMergePatch,
        Map<String, String> patchMergeKeys,
        Set<String> verbs,
        UpdateStrategy updates,
        Subresources subresources,
        SharedStorage sharedStorage) {

    /** Every verb of a Kubernetes collection. */
    public static final Set<String> ALL_VERBS = Set.of("create", "delete", "deletecollection", "get", "list",
            "patch", "update", "watch");

    /** A type whose PUT only replaces objects that exist, with or without a resourceVersion. */
    public ResourceType(String group, String version, String kind, String plural, String singular, boolean namespaced,
            List<String> shortNames, NameRule nameRule, Map<String, String> fieldLabels, boolean strategicMergePatch,
            Map<String, String> patchMergeKeys, Set<String> verbs) {
        this(group, version, kind, plural, singular, namespaced, shortNames, nameRule, fieldLabels,
                strategicMergePatch, patchMergeKeys, verbs, UpdateStrategy.REPLACE);
    }

    /** A type whose objects are stored as themselves. */
    public ResourceType(String group, String version, String kind, String plural, String singular, boolean namespaced,
            List<String> shortNames, NameRule nameRule, Map<String, String> fieldLabels, boolean strategicMergePatch,
            Map<String, String> patchMergeKeys, Set<String> verbs, UpdateStrategy updates, Subresources subresources) {
        this(group, version, kind, plural, singular, namespaced, shortNames, nameRule, fieldLabels,
                strategicMergePatch, patchMergeKeys, verbs, updates, subresources, null);
    }

    /** A type without subresources. */
    public ResourceType(String group, String version, String kind, String plural, String singular, boolean namespaced,
            List<String> shortNames, NameRule nameRule, Map<String, String> fieldLabels, boolean strategicMergePatch,
            Map<String, String> patchMergeKeys, Set<String> verbs, UpdateStrategy updates) {
        this(group, version, kind, plural, singular, namespaced, shortNames, nameRule, fieldLabels,
                strategicMergePatch, patchMergeKeys, verbs, updates, Subresources.NONE);
    }

    /** The apiVersion written into objects: {@code v1} for the core group, {@code group/version} otherwise. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /**
     * The group-qualified plural ({@code configmaps}, {@code widgets.example.com}): the name Kubernetes puts in
     * messages, and the one the store files objects under unless the type shares another's storage
     * ({@link #storageResource}).
     */
    public String resource() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    /**
     * The resource the store files this type's objects under: its own, or the one whose storage it shares (as
     * events.k8s.io/v1 Events are core Events).
     */
    public String storageResource() {
        return sharedStorage == null ? resource() : sharedStorage.resource();
    }

    /** Whether this type shows another type's stored objects (and so owns none of its own to list or collect). */
    public boolean sharesStorage() {
        return sharedStorage != null;
    }

    /**
     * {@code object} as this type's version shows it. Kubernetes converts a custom object between its definition's
     * versions (conversion strategy None) by its apiVersion alone, and a type that shares another's storage by its
     * own conversion; an object at this version already is returned as it is, so callers can tell that its stored
     * bytes still stand.
     */
    public ObjectNode shown(ObjectNode object) {
        if (object.path("apiVersion").asText().equals(apiVersion())) {
            return object;
        }
        if (sharedStorage != null) {
            return sharedStorage.shown(object);
        }
        ObjectNode converted = object.deepCopy();
        converted.put("apiVersion", apiVersion());
        return converted;
    }

    /** {@code object}, shown at this type's version, as the store keeps it. */
    public ObjectNode stored(ObjectNode object) {
        return sharedStorage == null ? object : sharedStorage.stored(object);
    }

    public String listKind() {
        return kind + "List";
    }
}
