package io.watchgate.authn;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The key a credential (a bearer token, a JWT verified lately, a session cookie's value) is kept under: its SHA-256,
 * so that a heap dump shows no credential, and a lookup compares digests, not the guessed credential.
 */
public final class CredentialDigest {

    private CredentialDigest() {
    }

    public static String of(String credential) {
        return Base64.getEncoder().encodeToString(sha256(credential.getBytes(StandardCharsets.UTF_8)));
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
