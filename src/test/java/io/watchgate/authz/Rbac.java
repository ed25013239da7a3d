package io.watchgate.authz;

/** RBAC objects as JSON, built the way a manifest reads, for the tests of identity and access. */
final class Rbac {

    private Rbac() {
    }

    /** A rule: {@code rule("", "configmaps", "get,list")}, with resourceNames after the verbs if any. */
    static String rule(String group, String resources, String verbs, String... names) {
        return "{\"apiGroups\":[\"" + group + "\"],\"resources\":" + list(resources) + ",\"verbs\":" + list(verbs)
                + (names.length == 0 ? "" : ",\"resourceNames\":" + list(String.join(",", names))) + "}";
    }

    static String role(String name, String... rules) {
        return "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\",\"metadata\":{\"name\":\"" + name
                + "\"},\"rules\":[" + String.join(",", rules) + "]}";
    }

    static String clusterRole(String name, String... rules) {
        return role(name, rules).replace("\"kind\":\"Role\"", "\"kind\":\"ClusterRole\"");
    }

    /** A binding of {@code roleKind}/{@code role} to subjects written {@code User:alice}, {@code Group:ops}. */
    static String roleBinding(String name, String roleKind, String role, String... subjects) {
        StringBuilder json = new StringBuilder("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":"
                + "\"RoleBinding\",\"metadata\":{\"name\":\"" + name + "\"},\"roleRef\":{\"apiGroup\":"
                + "\"rbac.authorization.k8s.io\",\"kind\":\"" + roleKind + "\",\"name\":\"" + role + "\"},"
                + "\"subjects\":[");
        for (int i = 0; i < subjects.length; i++) {
            String[] subject = subjects[i].split(":", 2);
            json.append(i == 0 ? "" : ",").append("{\"kind\":\"").append(subject[0]).append("\",\"name\":\"")
                    .append(subject[1]).append("\",\"apiGroup\":\"rbac.authorization.k8s.io\"}");
        }
        return json.append("]}").toString();
    }

    static String clusterRoleBinding(String name, String role, String... subjects) {
        return roleBinding(name, "ClusterRole", role, subjects)
                .replace("\"kind\":\"RoleBinding\"", "\"kind\":\"ClusterRoleBinding\"");
    }

    private static String list(String commaSeparated) {
        return "[\"" + String.join("\",\"", commaSeparated.split(",")) + "\"]";
    }
}
