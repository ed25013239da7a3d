package io.watchgate.authn;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
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
        return new TokenTable(Map.of(digest(token), user));
    }

    Optional<UserInfo> find(String token) {
        return Optional.ofNullable(usersByDigest.get(digest(token)));
    }

    int size() {
        return usersByDigest.size();
    }

    /** The key a token is kept under. */
    static String digest(String token) {
        return Base64.getEncoder().encodeToString(sha256(token.getBytes(StandardCharsets.UTF_8)));
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
