package io.watchgate.authn;

import io.vertx.ext.web.RoutingContext;

/**
 * The user each request comes from, as {@link RequestAuthentication} established it, kept with the request for what
 * comes after: authorization, the access reviews, escalation checks, and watches.
 */
public final class Identities {

    private static final String KEY = UserInfo.class.getName();
    private static final String AUTHENTICATED_KEY = KEY + ".authenticated";

    private Identities() {
    }

    /** Sets the request's user: its authentication, or an impersonation allowed afterwards. */
    public static void put(RoutingContext context, UserInfo user) {
        if (context.get(AUTHENTICATED_KEY) == null) {
            context.put(AUTHENTICATED_KEY, user);
        }
        context.put(KEY, user);
    }

    /** Whether the request got as far as a user: false for one refused by authentication (401). */
    public static boolean known(RoutingContext context) {
        return context.get(KEY) != null;
    }

    /**
     * Who sent the request, as authentication established it: the same as {@link #of} unless the request impersonates
     * someone, in which case {@link #of} is the user impersonated (the audit log names both, as kube's does).
     */
    public static UserInfo authenticated(RoutingContext context) {
        UserInfo user = context.get(AUTHENTICATED_KEY);
        return user != null ? user : of(context);
    }

    /** The request's user; a request that never met authentication (none does on the API port) is anonymous. */
    public static UserInfo of(RoutingContext context) {
        UserInfo user = context.get(KEY);
        return user != null ? user : UserInfo.anonymous();
    }
}
