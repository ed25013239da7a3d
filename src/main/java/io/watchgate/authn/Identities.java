package io.watchgate.authn;

import io.vertx.ext.web.RoutingContext;

/**
 * The user each request comes from, as {@link RequestAuthentication} established it, kept with the request for what
 * comes after: authorization, the access reviews, escalation checks, and watches.
 */
public final class Identities {

    private static final String KEY = UserInfo.class.getName();

    private Identities() {
    }

    /** Sets the request's user: its authentication, or an impersonation allowed afterwards. */
    public static void put(RoutingContext context, UserInfo user) {
        context.put(KEY, user);
    }

    /** The request's user; a request that never met authentication (none does on the API port) is anonymous. */
    public static UserInfo of(RoutingContext context) {
        UserInfo user = context.get(KEY);
        return user != null ? user : UserInfo.anonymous();
    }
}
