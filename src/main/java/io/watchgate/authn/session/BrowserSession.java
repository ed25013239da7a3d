package io.watchgate.authn.session;

import io.watchgate.authn.UserInfo;
import java.time.Instant;

/**
 * One browser's login: the user its credential named, until when it lasts. Renewal gives it a new cookie value and a
 * later end, never past {@code endOfLife}; watches started under it stay bound to it across renewals, and end with it
 * (logout, or expiry).
 */
public final class BrowserSession {

    private final UserInfo user;
    private final Instant endOfLife;
    private volatile Instant expires;
    private volatile boolean revoked;
    /** The digest of the cookie value in force (written under the store's lock). */
    volatile String key;
    /** The digest of the value before the last renewal, still good until {@code previousUntil} (requests in flight). */
    volatile String previousKey;
    volatile Instant previousUntil = Instant.MIN;

    BrowserSession(UserInfo user, String key, Instant expires, Instant endOfLife) {
        this.user = user;
        this.key = key;
        this.expires = expires.isAfter(endOfLife) ? endOfLife : expires;
        this.endOfLife = endOfLife;
    }

    public UserInfo user() {
        return user;
    }

    public Instant expires() {
        return expires;
    }

    public Instant endOfLife() {
        return endOfLife;
    }

    /** Whether {@code key} is this session's digest in force, or the one before it within its grace. */
    boolean answersTo(String key, Instant now) {
        return key.equals(this.key) || (key.equals(previousKey) && now.isBefore(previousUntil));
    }

    /** Whether the session still stands for its user: neither logged out nor expired. */
    public boolean active(Instant now) {
        return !revoked && now.isBefore(expires);
    }

    void extend(Instant to) {
        expires = to.isAfter(endOfLife) ? endOfLife : to;
    }

    void revoke() {
        revoked = true;
    }
}
