package io.watchgate.authn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** An Authorization header carries a bearer token as kube-apiserver reads one. */
class BearerTokenTest {

    @Test
    void theSchemeIsBearerInAnyCase() {
        assertEquals("abc", BearerToken.of("Bearer abc"));
        assertEquals("abc", BearerToken.of("bearer abc"));
        assertEquals("abc", BearerToken.of("BEARER abc"));
        assertEquals("abc", BearerToken.of("  Bearer abc  "));
    }

    @Test
    void whatFollowsTheTokenIsIgnored() {
        assertEquals("abc", BearerToken.of("Bearer abc def"));
    }

    @Test
    void otherSchemesAndEmptyTokensCarryNone() {
        assertNull(BearerToken.of(null));
        assertNull(BearerToken.of(""));
        assertNull(BearerToken.of("Basic YWxpY2U6c2VjcmV0"));
        assertNull(BearerToken.of("Bearer"));
        assertNull(BearerToken.of("Bearer "));
        assertNull(BearerToken.of("Bearer  abc"), "an extra space before the token: kube-apiserver ignores the header");
        assertNull(BearerToken.of("Bearerabc"));
    }
}
