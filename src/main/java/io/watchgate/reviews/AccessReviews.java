package io.watchgate.reviews;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.authz.Authorization;
import io.watchgate.authz.Decision;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ReviewTypes;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The answers to the reviews: "may I" (SelfSubjectAccessReview, {@code kubectl auth can-i}), "what may I"
 * (SelfSubjectRulesReview, {@code can-i --list}), "who am I" (SelfSubjectReview, {@code kubectl auth whoami}), "may
 * they" (SubjectAccessReview, LocalSubjectAccessReview) and "whose token is this" (TokenReview). Each is the review
 * sent, with its {@code status} filled in, as kube-apiserver answers; the server's own authorizer answers, so a review
 * says what a request would meet.
 */
@ApplicationScoped
public class AccessReviews {

    private final Authorization authorization;
    private final RulesReview rules;
    private final IdentityReviews identities;

    AccessReviews(Authorization authorization, RulesReview rules, IdentityReviews identities) {
        this.authorization = authorization;
        this.rules = rules;
        this.identities = identities;
    }

    /**
     * @param namespace the namespace of the path (LocalSubjectAccessReview), else empty
     * @param review    the body sent, which this call now owns and answers in
     */
    public ObjectNode answer(ResourceType type, String namespace, UserInfo user, ObjectNode review) {
        review.put("apiVersion", type.apiVersion());
        review.put("kind", type.kind());
        ObjectNode spec = review.withObject("/spec");
        ObjectNode status = review.putObject("status");
        if (type == ReviewTypes.SELF_SUBJECT_ACCESS_REVIEWS) {
            decide(ReviewedRequest.of(spec, user, type.kind()), status);
        } else if (type == ReviewTypes.SUBJECT_ACCESS_REVIEWS) {
            decide(ReviewedRequest.of(spec, subject(spec, type), type.kind()), status);
        } else if (type == ReviewTypes.LOCAL_SUBJECT_ACCESS_REVIEWS) {
            decide(local(namespace, review, spec, type), status);
        } else if (type == ReviewTypes.SELF_SUBJECT_RULES_REVIEWS) {
            String rulesNamespace = ReviewedRequest.text(spec, "namespace");
            if (rulesNamespace.isEmpty()) {
                throw ApiException.badRequest("no namespace on request"); // kube-apiserver's words
            }
            rules.answer(user, rulesNamespace, status);
        } else if (type == ReviewTypes.SELF_SUBJECT_REVIEWS) {
            review.remove("spec");
            identities.describe(user, status.putObject("userInfo"));
        } else if (type == ReviewTypes.TOKEN_REVIEWS) {
            identities.review(spec, status);
        } else {
            throw new IllegalArgumentException(type.resource() + " is no review");
        }
        return review;
    }

    private void decide(Attributes request, ObjectNode status) {
        Decision decision = authorization.authorize(request);
        status.put("allowed", decision.allowed());
        if (!decision.reason().isEmpty()) {
            status.put("reason", decision.reason());
        }
    }

    /** A LocalSubjectAccessReview asks about its own namespace only, as kube-apiserver checks. */
    private Attributes local(String namespace, ObjectNode review, ObjectNode spec, ResourceType type) {
        String declared = review.path("metadata").path("namespace").asText("");
        if (!declared.isEmpty() && !declared.equals(namespace)) {
            throw ApiException.badRequest("spec.resourceAttributes.namespace must match namespace: " + namespace);
        }
        review.withObject("/metadata").put("namespace", namespace);
        List<Cause> causes = new ArrayList<>();
        if (spec.path("nonResourceAttributes").isObject()) {
            causes.add(Cause.invalid("spec.nonResourceAttributes", "{...}", "disallowed on this kind of request"));
        }
        JsonNode resource = spec.path("resourceAttributes");
        if (resource.isObject() && !ReviewedRequest.text(resource, "namespace").equals(namespace)) {
            causes.add(Cause.invalid("spec.resourceAttributes.namespace",
                    ReviewedRequest.text(resource, "namespace"), "must match metadata.namespace"));
        }
        if (!causes.isEmpty()) {
            throw ApiException.invalid(ReviewTypes.AUTHORIZATION, type.kind(), "", causes);
        }
        return ReviewedRequest.of(spec, subject(spec, type), type.kind());
    }

    /** The user a SubjectAccessReview names: as given, nothing added (kube-apiserver adds no group either). */
    private static UserInfo subject(ObjectNode spec, ResourceType type) {
        String name = ReviewedRequest.text(spec, "user");
        List<String> groups = strings(spec.path("groups"));
        if (name.isEmpty() && groups.isEmpty()) {
            throw ApiException.invalid(ReviewTypes.AUTHORIZATION, type.kind(), "", List.of(
                    Cause.invalid("spec.user", "", "at least one of user or group must be specified")));
        }
        Map<String, List<String>> extra = new HashMap<>();
        spec.path("extra").fields().forEachRemaining(entry -> extra.put(entry.getKey(), strings(entry.getValue())));
        return new UserInfo(name, ReviewedRequest.text(spec, "uid"), groups, extra);
    }

    static List<String> strings(JsonNode node) {
        List<String> values = new ArrayList<>();
        if (node instanceof ArrayNode array) {
            array.forEach(element -> {
                if (element.isTextual()) {
                    values.add(element.textValue());
                }
            });
        }
        return values;
    }
}
