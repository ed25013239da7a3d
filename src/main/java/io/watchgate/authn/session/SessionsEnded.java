package io.watchgate.authn.session;

/**
 * Fired, at most once a sweep, when browser sessions ended (logout, expiry, a user's oldest replaced): their
 * watches end too.
 */
public record SessionsEnded(int count) {
}
