package io.watchgate.reviews;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.authn.RequestAuthentication;
import io.watchgate.authn.UserInfo;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The reviews of authentication.k8s.io: who the sender is (SelfSubjectReview), whose a token is (TokenReview). */
@ApplicationScoped
class IdentityReviews {

    private final RequestAuthentication authentication;

    IdentityReviews(RequestAuthentication authentication) {
        this.authentication = authentication;
    }

    /** {@code status.userInfo} as kube-apiserver writes it: username, uid when there is one, groups, extra. */
    void describe(UserInfo user, ObjectNode userInfo) {
        userInfo.put("username", user.name());
        if (!user.uid().isEmpty()) {
            userInfo.put("uid", user.uid());
        }
        user.groups().forEach(userInfo.withArray("/groups")::add);
        if (!user.extra().isEmpty()) {
            ObjectNode extra = userInfo.putObject("extra");
            for (Map.Entry<String, List<String>> entry : user.extra().entrySet()) {
                entry.getValue().forEach(extra.withArray("/" + escaped(entry.getKey()))::add);
            }
        }
    }

    /** Authenticates {@code spec.token} as a request carrying it would be; says nothing about why it failed. */
    void review(ObjectNode spec, ObjectNode status) {
        String token = ReviewedRequest.text(spec, "token");
        Optional<UserInfo> user = token.isEmpty() ? Optional.empty() : authentication.recognize(token);
        status.put("authenticated", user.isPresent());
        user.ifPresent(found -> describe(found, status.putObject("user")));
        // the token is the sender's secret: it is not sent back
        spec.remove("token");
    }

    private static String escaped(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
