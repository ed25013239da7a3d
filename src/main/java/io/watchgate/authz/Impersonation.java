package io.watchgate.authz;

import io.vertx.core.MultiMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authn.Identities;
import io.watchgate.authn.UserInfo;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.RouteOrder;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusResponses;
import io.watchgate.types.ReviewTypes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * User impersonation, as kube-apiserver's impersonation filter: an authenticated user may send a request as another
 * ({@code Impersonate-User}, {@code Impersonate-Group}, {@code Impersonate-Uid}, {@code Impersonate-Extra-<key>};
 * {@code kubectl --as}) when allowed the verb {@code impersonate} on each thing it claims (users, groups or service
 * accounts in the core group; uids and {@code userextras/<key>} in authentication.k8s.io). The request then goes on
 * as that user; a claim not allowed is 403, naming it.
 */
@ApplicationScoped
public class Impersonation {

    static final String USER = "Impersonate-User";
    static final String GROUP = "Impersonate-Group";
    static final String UID = "Impersonate-Uid";
    static final String EXTRA_PREFIX = "impersonate-extra-";
    private static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    private final Authorization authorization;
    private final Refusals refusals;

    Impersonation(Authorization authorization, Refusals refusals) {
        this.authorization = authorization;
        this.refusals = refusals;
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.IMPERSONATION.order()).handler(this::impersonate);
    }

    private void impersonate(RoutingContext context) {
        MultiMap headers = context.request().headers();
        if (!claims(headers)) {
            context.next();
            return;
        }
        try {
            Identities.put(context, actingAs(Identities.of(context), headers));
            context.next();
        } catch (ApiException e) {
            if (e.code() == 403) {
                refusals.count(Refusals.Reason.FORBIDDEN);
            }
            StatusResponses.end(context.response(), e);
        }
    }

    private static boolean claims(MultiMap headers) {
        if (headers.contains(USER) || headers.contains(GROUP) || headers.contains(UID)) {
            return true;
        }
        for (String name : headers.names()) {
            if (name.toLowerCase(Locale.ROOT).startsWith(EXTRA_PREFIX)) {
                return true;
            }
        }
        return false;
    }

    /** The user {@code requester} acts as, each claim allowed; 400 or 403 otherwise. */
    UserInfo actingAs(UserInfo requester, MultiMap headers) {
        String name = headers.get(USER);
        List<String> groups = new ArrayList<>(headers.getAll(GROUP));
        String uid = headers.get(UID);
        Map<String, List<String>> extra = new HashMap<>();
        for (Map.Entry<String, String> header : headers) {
            String lower = header.getKey().toLowerCase(Locale.ROOT);
            if (lower.startsWith(EXTRA_PREFIX)) {
                String key = unescaped(lower.substring(EXTRA_PREFIX.length()));
                extra.computeIfAbsent(key, k -> new ArrayList<>()).add(header.getValue());
            }
        }
        if (name == null || name.isEmpty()) {
            if (groups.isEmpty() && (uid == null || uid.isEmpty()) && extra.isEmpty()) {
                return requester; // empty headers claim nothing, as kube-apiserver reads them
            }
            throw ApiException.badRequest("requested " + claimed(groups, uid, extra)
                    + " without impersonating a user");
        }
        String[] serviceAccount = name.startsWith(SERVICE_ACCOUNT_PREFIX)
                ? name.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", -1) : new String[0];
        if (serviceAccount.length == 2 && !serviceAccount[0].isEmpty() && !serviceAccount[1].isEmpty()) {
            // kube's SplitUsername: exactly namespace:name, else the name is an ordinary user's
            require(Attributes.resource(requester, "impersonate", "", "", "serviceaccounts", "", serviceAccount[0],
                    serviceAccount[1]));
            if (groups.isEmpty()) {
                groups.add("system:serviceaccounts");
                groups.add("system:serviceaccounts:" + serviceAccount[0]);
            }
        } else {
            require(Attributes.resource(requester, "impersonate", "", "", "users", "", "", name));
        }
        for (String group : headers.getAll(GROUP)) {
            require(Attributes.resource(requester, "impersonate", "", "", "groups", "", "", group));
        }
        if (uid != null && !uid.isEmpty()) {
            require(Attributes.resource(requester, "impersonate", ReviewTypes.AUTHENTICATION, "", "uids", "", "",
                    uid));
        }
        for (Map.Entry<String, List<String>> entry : extra.entrySet()) {
            for (String value : entry.getValue()) {
                require(Attributes.resource(requester, "impersonate", ReviewTypes.AUTHENTICATION, "", "userextras",
                        entry.getKey(), "", value));
            }
        }
        if (name.equals(UserInfo.ANONYMOUS)) {
            if (!groups.contains(UserInfo.UNAUTHENTICATED)) {
                groups.add(UserInfo.UNAUTHENTICATED);
            }
        } else if (!groups.contains(UserInfo.AUTHENTICATED) && !groups.contains(UserInfo.UNAUTHENTICATED)) {
            groups.add(UserInfo.AUTHENTICATED);
        }
        return new UserInfo(name, uid == null ? "" : uid, groups, extra);
    }

    /**
     * An extra key as kube reads it from a header name (Go's {@code url.PathUnescape}): percent escapes decoded, a
     * {@code +} kept; a key whose escapes do not decode is kept as sent.
     */
    static String unescaped(String key) {
        if (key.indexOf('%') < 0) {
            return key;
        }
        try {
            return URLDecoder.decode(key.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return key;
        }
    }

    private void require(Attributes claim) {
        Decision decision = authorization.authorize(claim);
        if (!decision.allowed()) {
            throw Forbidden.of(claim, decision.reason());
        }
    }

    private static String claimed(List<String> groups, String uid, Map<String, List<String>> extra) {
        List<String> parts = new ArrayList<>();
        if (!groups.isEmpty()) {
            parts.add("groups");
        }
        if (uid != null) {
            parts.add("uid");
        }
        if (!extra.isEmpty()) {
            parts.add("extra");
        }
        return String.join(", ", parts);
    }
}
