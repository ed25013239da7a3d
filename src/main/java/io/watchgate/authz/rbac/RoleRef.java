package io.watchgate.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;

/** The role a binding grants (rbac/v1 {@code RoleRef}): a Role of the binding's namespace, or a ClusterRole. */
record RoleRef(String apiGroup, String kind, String name) {

    static RoleRef from(JsonNode roleRef) {
        return new RoleRef(roleRef.path("apiGroup").asText(""), roleRef.path("kind").asText(""),
                roleRef.path("name").asText(""));
    }
}
