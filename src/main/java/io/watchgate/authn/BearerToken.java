package io.watchgate.authn;

import java.util.Locale;

/**
 * The bearer token of an {@code Authorization} header, read as kube-apiserver's bearertoken authenticator reads it:
 * {@code Bearer <token>}, the scheme in any case. A header of another scheme, or an empty token, carries no bearer
 * token: the request is then as one without credentials.
 */
public final class BearerToken {

    private BearerToken() {
    }

    /** The token, or null when the header carries none. */
    public static String of(String header) {
        if (header == null) {
            return null;
        }
        String trimmed = header.strip();
        int space = trimmed.indexOf(' ');
        if (space < 0 || !trimmed.substring(0, space).toLowerCase(Locale.ROOT).equals("bearer")) {
            return null;
        }
        String rest = trimmed.substring(space + 1);
        int next = rest.indexOf(' ');
        String token = next < 0 ? rest : rest.substring(0, next);
        return token.isEmpty() ? null : token;
    }
}
