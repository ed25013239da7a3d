package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a DELETE may ask: preconditions on the object's uid and resourceVersion, a dry run, and what becomes of
 * the object's dependents. Read from the body when one is sent, else from the query, as Kubernetes does.
 *
 * @param uid             null for no precondition
 * @param resourceVersion null for no precondition
 * @param propagation     null when the request named no policy: the object's own garbage-collection finalizer
 *                        decides, else its type's default
 */
public record DeleteOptions(String uid, String resourceVersion, boolean dryRun, Propagation propagation) {

    private static final List<String> PROPAGATION_POLICIES = java.util.Arrays.stream(Propagation.values())
            .map(Propagation::policy).toList();
    private static final Set<String> API_VERSIONS = Set.of("v1", "meta.k8s.io/v1");

    /** No precondition, no dry run, no policy: what the server's own deletions ask. */
    public static final DeleteOptions NONE = new DeleteOptions(null, null, false, null);

    /**
     * Reads a DeleteOptions body strictly, as Kubernetes decodes it: a field of the wrong type is 400, never
     * silently dropped (a dry run that was not understood must not delete); an unsupported value is 422.
     *
     * @param typeApiVersion the apiVersion of the type deleted from, which typed clients name in the body
     */
    public static DeleteOptions fromBody(JsonNode body, String typeApiVersion) {
        if (!body.isObject()) {
            throw undecodable("the body must be a JSON object");
        }
        String kind = optionalText(body, "kind");
        if (kind != null && !kind.isEmpty() && !kind.equals("DeleteOptions")) {
            throw undecodable("kind must be DeleteOptions, not " + kind);
        }
        String apiVersion = optionalText(body, "apiVersion");
        if (apiVersion != null && !apiVersion.isEmpty() && !API_VERSIONS.contains(apiVersion)
                && !apiVersion.equals(typeApiVersion)) {
            throw undecodable("no DeleteOptions in version \"" + apiVersion + "\"");
        }
        JsonNode preconditions = body.path("preconditions");
        String uid = null;
        String resourceVersion = null;
        if (!preconditions.isMissingNode() && !preconditions.isNull()) {
            if (!preconditions.isObject()) {
                throw undecodable("preconditions must be an object");
            }
            uid = optionalText(preconditions, "uid");
            resourceVersion = optionalText(preconditions, "resourceVersion");
        }
        JsonNode grace = body.path("gracePeriodSeconds");
        if (!grace.isMissingNode() && !grace.isNull() && (!grace.isIntegralNumber() || !grace.canConvertToLong())) {
            throw undecodable("gracePeriodSeconds must be an integer");
        }
        JsonNode orphan = body.path("orphanDependents");
        if (!orphan.isMissingNode() && !orphan.isNull() && !orphan.isBoolean()) {
            throw undecodable("orphanDependents must be a boolean");
        }
        List<String> dryRun = stringList(body.path("dryRun"));
        String policy = optionalText(body, "propagationPolicy");
        Boolean orphanDependents = orphan.isBoolean() ? orphan.booleanValue() : null;
        validate(policy, orphanDependents, dryRun);
        return new DeleteOptions(uid, resourceVersion, !dryRun.isEmpty(), propagation(policy, orphanDependents));
    }

    /**
     * The query form: {@code dryRun}, {@code propagationPolicy}, the deprecated {@code orphanDependents} and
     * {@code gracePeriodSeconds}.
     */
    public static DeleteOptions fromQuery(List<String> dryRun, String propagationPolicy, String orphanDependents,
            String gracePeriodSeconds) {
        if (gracePeriodSeconds != null && !gracePeriodSeconds.matches("-?[0-9]{1,18}")) {
            throw ApiException.badRequest("gracePeriodSeconds: Invalid value: \"" + gracePeriodSeconds
                    + "\": must be an integer");
        }
        if (orphanDependents != null && !orphanDependents.equals("true") && !orphanDependents.equals("false")) {
            throw ApiException.badRequest("orphanDependents: Invalid value: \"" + orphanDependents
                    + "\": must be true or false");
        }
        Boolean orphan = orphanDependents == null ? null : Boolean.valueOf(orphanDependents);
        List<String> values = dryRun == null ? List.of() : dryRun;
        validate(propagationPolicy, orphan, values);
        return new DeleteOptions(null, null, !values.isEmpty(), propagation(propagationPolicy, orphan));
    }

    /** The deprecated {@code orphanDependents} says Orphan, or (false) Background. */
    private static Propagation propagation(String policy, Boolean orphanDependents) {
        if (orphanDependents != null) {
            return orphanDependents ? Propagation.ORPHAN : Propagation.BACKGROUND;
        }
        return policy == null ? null : Propagation.named(policy);
    }

    private static void validate(String propagationPolicy, Boolean orphanDependents, List<String> dryRun) {
        List<Cause> causes = new ArrayList<>();
        if (propagationPolicy != null && !PROPAGATION_POLICIES.contains(propagationPolicy)) {
            causes.add(Cause.notSupported("propagationPolicy", propagationPolicy, PROPAGATION_POLICIES));
        }
        if (propagationPolicy != null && orphanDependents != null) {
            causes.add(Cause.invalid("propagationPolicy", propagationPolicy,
                    "orphanDependents and deletionPropagation cannot be both set"));
        }
        for (String value : dryRun) {
            if (!value.equals("All")) {
                causes.add(Cause.notSupported("dryRun", value, List.of("All")));
            }
        }
        if (!causes.isEmpty()) {
            throw ApiException.invalid("meta.k8s.io", "DeleteOptions", "", causes);
        }
    }

    private static List<String> stringList(JsonNode values) {
        if (values.isMissingNode() || values.isNull()) {
            return List.of();
        }
        if (!values.isArray()) {
            throw undecodable("dryRun must be a list of strings");
        }
        List<String> list = new ArrayList<>();
        for (JsonNode value : values) {
            if (!value.isTextual()) {
                throw undecodable("dryRun must be a list of strings");
            }
            list.add(value.textValue());
        }
        return list;
    }

    private static String optionalText(JsonNode parent, String field) {
        JsonNode node = parent.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw undecodable(field + " must be a string");
        }
        return node.textValue();
    }

    private static ApiException undecodable(String problem) {
        return ApiException.undecodable("DeleteOptions", "v1", problem);
    }
}
