package io.watchgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import java.util.ArrayList;
import java.util.List;

/**
 * What kube-apiserver's ObjectMeta validation checks of what the garbage collector reads: each owner reference
 * names its owner fully, by a parseable apiVersion; at most one is the controller; no core Event owns anything;
 * and the collector's two finalizers are not both asked for. Whether the owner exists is not checked: the
 * collector judges that.
 *
 * <p>The references have been decoded (ObjectValidator): an array of objects.
 */
final class OwnershipRules {

    private OwnershipRules() {
    }

    static void check(JsonNode metadata, Causes causes) {
        JsonNode references = metadata.path("ownerReferences");
        List<String> controllers = new ArrayList<>();
        for (int i = 0; i < references.size(); i++) {
            JsonNode reference = references.get(i);
            String path = "metadata.ownerReferences[" + i + "]";
            for (String required : new String[] { "apiVersion", "kind", "name", "uid" }) {
                if ((!reference.path(required).isTextual() || reference.path(required).textValue().isEmpty())
                        && causes.accept()) {
                    causes.add(Cause.required(path + "." + required, ""));
                }
            }
            String apiVersion = reference.path("apiVersion").asText("");
            if (!apiVersion.isEmpty() && !isGroupVersion(apiVersion) && causes.accept()) {
                causes.add(Cause.invalid(path + ".apiVersion", apiVersion, "must be <group>/<version> or <version>"));
            }
            if (apiVersion.equals("v1") && reference.path("kind").asText("").equals("Event") && causes.accept()) {
                causes.add(Cause.invalidPrinted(path, reference.toString(), "/v1, Kind=Event is disallowed from "
                        + "being an owner"));
            }
            if (reference.path("controller").asBoolean(false)) {
                controllers.add(reference.path("kind").asText("") + "/" + reference.path("name").asText(""));
            }
        }
        if (controllers.size() > 1 && causes.accept()) {
            causes.add(Cause.invalidPrinted("metadata.ownerReferences", references.toString(), "Only one reference "
                    + "can have Controller set to true. Found \"true\" in references for " + controllers.get(0)
                    + " and " + controllers.get(1)));
        }
        List<String> finalizers = new ArrayList<>();
        metadata.path("finalizers").forEach(f -> finalizers.add(f.asText()));
        if (finalizers.contains("orphan") && finalizers.contains("foregroundDeletion") && causes.accept()) {
            causes.add(Cause.invalidPrinted("metadata.finalizers", "[]string{\"" + String.join("\", \"", finalizers)
                    + "\"}", "finalizer orphan and foregroundDeletion cannot be both set"));
        }
    }

    /** {@code version} or {@code group/version}, each part non-empty. */
    private static boolean isGroupVersion(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        if (slash < 0) {
            return true;
        }
        return slash > 0 && slash < apiVersion.length() - 1 && apiVersion.indexOf('/', slash + 1) < 0;
    }
}
