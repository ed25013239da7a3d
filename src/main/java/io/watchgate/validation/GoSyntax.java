package io.watchgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.Cause;

/**
 * A value as Go's {@code %#v} prints it, which is how kube-apiserver quotes a bad value that is not a plain string
 * ({@code []string{"/api"}}, {@code rbac.RoleRef{...}}): clients and people compare these messages with kube's.
 * Long values are cut to what a {@link Cause} quotes anyway.
 */
record GoSyntax(String text) {

    private static final int MAX_CHARS = 512;

    @Override
    public String toString() {
        return text;
    }

    static GoSyntax strings(JsonNode array) {
        StringBuilder text = new StringBuilder("[]string{");
        for (int i = 0; i < array.size() && text.length() < MAX_CHARS; i++) {
            text.append(i == 0 ? "" : ", ").append(quoted(array.get(i).asText()));
        }
        return new GoSyntax(text.append('}').toString());
    }

    static GoSyntax roleRef(String apiGroup, String kind, String name) {
        return new GoSyntax("rbac.RoleRef{APIGroup:" + quoted(apiGroup) + ", Kind:" + quoted(kind) + ", Name:"
                + quoted(name) + "}");
    }

    private static String quoted(String text) {
        String cut = text.length() > MAX_CHARS ? text.substring(0, MAX_CHARS) : text;
        return "\"" + cut.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
