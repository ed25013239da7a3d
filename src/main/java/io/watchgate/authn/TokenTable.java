package io.watchgate.authn;

import java.util.Map;
import java.util.Optional;

/**
 * Users by the SHA-256 of their bearer token. Only digests are kept, so a heap dump shows no token; and a lookup
 * compares digests, so how long it takes says nothing about how much of a guessed token was right.
 */
record TokenTable(Map<String, UserInfo> usersByDigest) {

    static final TokenTable EMPTY = new TokenTable(Map.of());

    TokenTable {
        usersByDigest = Map.copyOf(usersByDigest);
    }

    /** A table of one token. */
    static TokenTable of(String token, UserInfo user) {
        return new TokenTable(Map.of(CredentialDigest.of(token), user));
    }

    Optional<UserInfo> find(String token) {
        return Optional.ofNullable(usersByDigest.get(CredentialDigest.of(token)));
    }

    int size() {
        return usersByDigest.size();
    }
}
