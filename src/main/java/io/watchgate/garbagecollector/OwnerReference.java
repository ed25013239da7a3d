package io.watchgate.garbagecollector;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** One of an object's {@code metadata.ownerReferences}: its owner, named by kind and name, and trusted by uid. */
record OwnerReference(String apiVersion, String kind, String name, String uid, boolean blockOwnerDeletion) {

    /** The references {@code object} carries, those without a uid left out (validation refuses them). */
    static List<OwnerReference> of(JsonNode object) {
        JsonNode references = object.path("metadata").path("ownerReferences");
        if (!references.isArray() || references.isEmpty()) {
            return List.of();
        }
        List<OwnerReference> list = new ArrayList<>(references.size());
        for (JsonNode reference : references) {
            String uid = reference.path("uid").asText("");
            if (!uid.isEmpty()) {
                list.add(new OwnerReference(reference.path("apiVersion").asText(""), reference.path("kind").asText(""),
                        reference.path("name").asText(""), uid, reference.path("blockOwnerDeletion").asBoolean(false)));
            }
        }
        return list;
    }

    static boolean hasAny(JsonNode object) {
        JsonNode references = object.path("metadata").path("ownerReferences");
        return references.isArray() && !references.isEmpty();
    }

    /** The group of the owner's apiVersion: "" for the core group. */
    String group() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
