package io.watchgate.types;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reviews of authorization.k8s.io/v1 and authentication.k8s.io/v1: questions put to the server as creates ("may
 * I list secrets here?", "who am I?"), answered at once and never stored, so they take no other verb.
 */
public final class ReviewTypes {

    public static final String AUTHORIZATION = "authorization.k8s.io";
    public static final String AUTHENTICATION = "authentication.k8s.io";

    public static final ResourceType SELF_SUBJECT_ACCESS_REVIEWS = type(AUTHORIZATION, "SelfSubjectAccessReview",
            "selfsubjectaccessreviews", false);
    public static final ResourceType SELF_SUBJECT_RULES_REVIEWS = type(AUTHORIZATION, "SelfSubjectRulesReview",
            "selfsubjectrulesreviews", false);
    public static final ResourceType SUBJECT_ACCESS_REVIEWS = type(AUTHORIZATION, "SubjectAccessReview",
            "subjectaccessreviews", false);
    public static final ResourceType LOCAL_SUBJECT_ACCESS_REVIEWS = type(AUTHORIZATION, "LocalSubjectAccessReview",
            "localsubjectaccessreviews", true);
    public static final ResourceType SELF_SUBJECT_REVIEWS = type(AUTHENTICATION, "SelfSubjectReview",
            "selfsubjectreviews", false);
    public static final ResourceType TOKEN_REVIEWS = type(AUTHENTICATION, "TokenReview", "tokenreviews", false);

    public static final List<ResourceType> ALL = List.of(SELF_SUBJECT_ACCESS_REVIEWS, SELF_SUBJECT_RULES_REVIEWS,
            SUBJECT_ACCESS_REVIEWS, LOCAL_SUBJECT_ACCESS_REVIEWS, SELF_SUBJECT_REVIEWS, TOKEN_REVIEWS);

    private ReviewTypes() {
    }

    public static boolean isReview(ResourceType type) {
        return ALL.contains(type);
    }

    private static ResourceType type(String group, String kind, String plural, boolean namespaced) {
        return new ResourceType(group, "v1", kind, plural, plural.substring(0, plural.length() - 1), namespaced,
                List.of(), NameRule.DNS1123_SUBDOMAIN, Map.of(), false, Map.of(), Set.of("create"));
    }
}
