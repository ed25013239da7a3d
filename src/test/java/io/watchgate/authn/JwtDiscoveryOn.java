package io.watchgate.authn;

import io.watchgate.authz.RbacOn;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jose4j.jwk.RsaJsonWebKey;

/**
 * The production-like server ({@link RbacOn}) accepting JWTs of an issuer it finds as kube-apiserver does: through
 * the issuer's discovery document, over HTTPS trusting the configuration's {@code certificateAuthority}.
 */
public class JwtDiscoveryOn extends RbacOn {

    static final RsaJsonWebKey FIRST = JwtOn.key("first");
    static final RsaJsonWebKey SECOND = JwtOn.key("second");
    static final TestIssuer ISSUER = start();

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> config = new HashMap<>(super.getConfigOverrides());
        config.put("watchgate.auth.authentication-config", write().toString());
        return config;
    }

    private static TestIssuer start() {
        try {
            return TestIssuer.start(FIRST);
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static Path write() {
        try {
            Path config = Files.createTempFile("watchgate-jwt-discovery-", ".yaml");
            config.toFile().deleteOnExit();
            StringBuilder yaml = new StringBuilder(String.join("\n",
                    "apiVersion: apiserver.config.k8s.io/v1beta1",
                    "kind: AuthenticationConfiguration",
                    "jwt:",
                    "- issuer:",
                    "    url: " + ISSUER.url,
                    "    audiences: [" + JwtOn.AUDIENCE + "]",
                    "    certificateAuthority: |",
                    ""));
            for (String line : ISSUER.caPem.split("\n")) {
                yaml.append("      ").append(line).append('\n');
            }
            yaml.append("  claimMappings:\n    username: {claim: sub, prefix: \"disco:\"}\n");
            Files.writeString(config, yaml);
            return config;
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
