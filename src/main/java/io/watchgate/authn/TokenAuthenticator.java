package io.watchgate.authn;

import java.time.Instant;
import java.util.Optional;

/**
 * One way of recognizing a bearer token (kube-apiserver's {@code authenticator.Token}). Requests go through the
 * authenticators in turn; the first that recognizes the token names the user.
 */
public interface TokenAuthenticator {

    /**
     * The user the token names, or empty when this authenticator does not recognize it. Called on an event loop for
     * every request that carries a token: it must answer from memory, in microseconds.
     */
    Optional<UserInfo> authenticate(String token);

    /** When a token this authenticator recognized stops being valid, if it says (a JWT's {@code exp}). */
    default Optional<Instant> expiry(String token) {
        return Optional.empty();
    }
}
