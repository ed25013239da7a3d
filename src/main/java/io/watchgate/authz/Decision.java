package io.watchgate.authz;

/**
 * An authorizer's answer. {@code reason} says why a request is denied when there is something worth telling
 * (kube-apiserver appends it to the 403's message: a binding to a role that does not exist), else it is empty.
 */
public record Decision(boolean allowed, String reason) {

    public static final Decision ALLOW = new Decision(true, "");
    public static final Decision DENY = new Decision(false, "");
}
