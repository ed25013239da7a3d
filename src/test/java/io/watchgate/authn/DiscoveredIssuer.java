package io.watchgate.authn;

import org.jose4j.jwk.PublicJsonWebKey;

/**
 * An OIDC issuer the server finds as kube-apiserver does: through the issuer's discovery document, over HTTPS
 * trusting the configuration's {@code certificateAuthority}. {@link JwtIssuers} configures it beside its own.
 */
final class DiscoveredIssuer {

    static final PublicJsonWebKey FIRST = JwtIssuers.ecKey("first");
    static final PublicJsonWebKey SECOND = JwtIssuers.ecKey("second");
    static final TestIssuer ISSUER = start();

    private DiscoveredIssuer() {
    }

    /** Its entry in an AuthenticationConfiguration's {@code jwt} list, as YAML lines. */
    static String entry() {
        StringBuilder yaml = new StringBuilder(String.join("\n",
                "- issuer:",
                "    url: " + ISSUER.url,
                "    audiences: [" + JwtIssuers.AUDIENCE + "]",
                "    certificateAuthority: |",
                ""));
        for (String line : ISSUER.caPem.split("\n")) {
            yaml.append("      ").append(line).append('\n');
        }
        return yaml.append("  claimMappings:\n    username: {claim: sub, prefix: \"disco:\"}\n").toString();
    }

    private static TestIssuer start() {
        try {
            return TestIssuer.start(FIRST);
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
