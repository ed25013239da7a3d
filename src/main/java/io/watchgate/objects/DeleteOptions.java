package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a DELETE may ask: preconditions on the object's uid and resourceVersion, and a dry run.
 *
 * @param uid             null for no precondition
 * @param resourceVersion null for no precondition
 */
public record DeleteOptions(String uid, String resourceVersion, boolean dryRun) {

    private static final Set<String> PROPAGATION_POLICIES = Set.of("Orphan", "Background", "Foreground");
    private static final Set<String> API_VERSIONS = Set.of("v1", "meta.k8s.io/v1");

    /**
     * Reads a DeleteOptions body strictly, as Kubernetes decodes it: a field of the wrong type is 400, never
     * silently dropped (a dry run that was not understood must not delete).
     *
     * @param body         the request body, or null when none was sent
     * @param queryDryRun  whether the query already asked for a dry run
     */
    public static DeleteOptions from(JsonNode body, boolean queryDryRun) {
        if (body == null) {
            return new DeleteOptions(null, null, queryDryRun);
        }
        if (!body.isObject()) {
            throw invalid("the body must be a JSON object");
        }
        String kind = optionalText(body, "kind");
        if (kind != null && !kind.isEmpty() && !kind.equals("DeleteOptions")) {
            throw invalid("kind must be DeleteOptions, not " + kind);
        }
        String apiVersion = optionalText(body, "apiVersion");
        if (apiVersion != null && !apiVersion.isEmpty() && !API_VERSIONS.contains(apiVersion)) {
            throw invalid("no DeleteOptions in version \"" + apiVersion + "\"");
        }
        JsonNode preconditions = body.path("preconditions");
        String uid = null;
        String resourceVersion = null;
        if (!preconditions.isMissingNode() && !preconditions.isNull()) {
            if (!preconditions.isObject()) {
                throw invalid("preconditions must be an object");
            }
            uid = optionalText(preconditions, "uid");
            resourceVersion = optionalText(preconditions, "resourceVersion");
        }
        checkPropagationPolicy(optionalText(body, "propagationPolicy"));
        JsonNode grace = body.path("gracePeriodSeconds");
        if (!grace.isMissingNode() && !grace.isNull() && (!grace.isIntegralNumber() || !grace.canConvertToLong())) {
            throw invalid("gracePeriodSeconds must be an integer");
        }
        JsonNode orphan = body.path("orphanDependents");
        if (!orphan.isMissingNode() && !orphan.isNull() && !orphan.isBoolean()) {
            throw invalid("orphanDependents must be a boolean");
        }
        return new DeleteOptions(uid, resourceVersion, queryDryRun || dryRun(body.path("dryRun")));
    }

    /** The query's form of the same options, checked the same way. */
    public static void checkQuery(String propagationPolicy, String gracePeriodSeconds) {
        checkPropagationPolicy(propagationPolicy);
        if (gracePeriodSeconds != null && !gracePeriodSeconds.matches("-?[0-9]{1,18}")) {
            throw ApiException.badRequest("gracePeriodSeconds: Invalid value: \"" + gracePeriodSeconds
                    + "\": must be an integer");
        }
    }

    private static void checkPropagationPolicy(String policy) {
        if (policy != null && !PROPAGATION_POLICIES.contains(policy)) {
            throw ApiException.badRequest("propagationPolicy: Unsupported value: \"" + policy
                    + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"");
        }
    }

    private static boolean dryRun(JsonNode values) {
        if (values.isMissingNode() || values.isNull()) {
            return false;
        }
        if (!values.isArray()) {
            throw invalid("dryRun must be a list of strings");
        }
        List<String> all = new ArrayList<>();
        for (JsonNode value : values) {
            if (!value.isTextual()) {
                throw invalid("dryRun must be a list of strings");
            }
            all.add(value.textValue());
        }
        for (String value : all) {
            if (!value.equals("All")) {
                throw ApiException.badRequest("dryRun: Unsupported value: \"" + value + "\": supported values: \"All\"");
            }
        }
        return !all.isEmpty();
    }

    private static String optionalText(JsonNode parent, String field) {
        JsonNode node = parent.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw invalid(field + " must be a string");
        }
        return node.textValue();
    }

    private static ApiException invalid(String problem) {
        return ApiException.undecodable("DeleteOptions", "v1", problem);
    }
}
