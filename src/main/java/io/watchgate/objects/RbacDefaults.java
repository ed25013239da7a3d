package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ResourceType;

/**
 * rbac/v1's defaulting (SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding, SetDefaults_Subject): a roleRef and
 * a User or Group subject without an apiGroup are in rbac.authorization.k8s.io. Clients rely on it: many manifests
 * name a user by kind and name alone, and validation would refuse them without it.
 */
public final class RbacDefaults {

    private RbacDefaults() {
    }

    public static void apply(ResourceType type, ObjectNode object) {
        if (!type.kind().endsWith("Binding")) {
            return;
        }
        JsonNode roleRef = object.get("roleRef");
        if (roleRef == null || roleRef.isNull()) {
            roleRef = object.putObject("roleRef"); // a Go struct, never nil: its defaults apply all the same
        }
        if (roleRef instanceof ObjectNode fields && isEmpty(fields.get("apiGroup"))) {
            fields.put("apiGroup", RbacTypes.GROUP);
        }
        JsonNode subjects = object.path("subjects");
        if (!subjects.isArray()) {
            return;
        }
        for (JsonNode subject : subjects) {
            if (subject instanceof ObjectNode fields && isEmpty(fields.get("apiGroup"))) {
                String kind = fields.path("kind").asText();
                if (kind.equals("User") || kind.equals("Group")) {
                    fields.put("apiGroup", RbacTypes.GROUP);
                }
            }
        }
    }

    private static boolean isEmpty(JsonNode apiGroup) {
        return apiGroup == null || apiGroup.isNull() || (apiGroup.isTextual() && apiGroup.textValue().isEmpty());
    }
}
