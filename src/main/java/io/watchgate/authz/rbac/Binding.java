package io.watchgate.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.authn.UserInfo;
import java.util.ArrayList;
import java.util.List;

/** A RoleBinding (namespace set) or ClusterRoleBinding (namespace empty), as authorization reads it. */
record Binding(String name, String namespace, RoleRef roleRef, List<Subject> subjects) {

    Binding {
        subjects = List.copyOf(subjects);
    }

    static Binding from(ObjectNode binding) {
        JsonNode metadata = binding.path("metadata");
        List<Subject> subjects = new ArrayList<>();
        JsonNode listed = binding.path("subjects");
        if (listed.isArray()) {
            listed.forEach(subject -> subjects.add(Subject.from(subject)));
        }
        return new Binding(metadata.path("name").asText(""), metadata.path("namespace").asText(""),
                RoleRef.from(binding.path("roleRef")), subjects);
    }

    /** Kube's {@code appliesTo}: whether any subject is the user. */
    boolean appliesTo(UserInfo user) {
        for (Subject subject : subjects) {
            if (subject.appliesTo(user, namespace)) {
                return true;
            }
        }
        return false;
    }
}
