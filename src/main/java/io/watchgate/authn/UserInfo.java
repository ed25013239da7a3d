package io.watchgate.authn;

import java.util.List;
import java.util.Map;

/**
 * Who a request comes from, as an authenticator established it (kube-apiserver's {@code user.Info}): a name, a uid,
 * the groups the user belongs to (the well-known {@code system:authenticated} or {@code system:unauthenticated}
 * among them) and extra attributes. Authorization reads nothing else of a request's sender.
 */
public record UserInfo(String name, String uid, List<String> groups, Map<String, List<String>> extra) {

    public static final String ANONYMOUS = "system:anonymous";
    public static final String UNAUTHENTICATED = "system:unauthenticated";
    public static final String AUTHENTICATED = "system:authenticated";
    /** Members are allowed everything, whatever RBAC says (kube-apiserver's privileged group). */
    public static final String MASTERS = "system:masters";

    public UserInfo {
        groups = List.copyOf(groups);
        extra = Map.copyOf(extra);
    }

    /** A user an authenticator recognized: its groups, then {@code system:authenticated}, as kube-apiserver adds it. */
    public static UserInfo authenticated(String name, String uid, List<String> groups) {
        List<String> all = new java.util.ArrayList<>(groups);
        if (!all.contains(AUTHENTICATED) && !all.contains(UNAUTHENTICATED)) {
            all.add(AUTHENTICATED);
        }
        return new UserInfo(name, uid, all, Map.of());
    }

    /** A request without credentials, where the server lets those in. */
    public static UserInfo anonymous() {
        return new UserInfo(ANONYMOUS, "", List.of(UNAUTHENTICATED), Map.of());
    }

    public boolean isMaster() {
        return groups.contains(MASTERS);
    }
}
