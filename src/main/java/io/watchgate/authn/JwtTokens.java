package io.watchgate.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

/**
 * JWT bearer tokens of OIDC issuers, kube-apiserver's JWT authenticator as its AuthenticationConfiguration
 * ({@code watchgate.auth.authentication-config}) sets it up: a token whose {@code iss} is a configured issuer is
 * verified by SmallRye JWT (signature against the issuer's keys, {@code exp} and {@code nbf}, one of the audiences),
 * then checked against the claim validation rules, and its claims name the user: username (prefixed), groups
 * (prefixed), uid. A token of another issuer, or not a JWT, is left to the other authenticators.
 */
@ApplicationScoped
public class JwtTokens implements TokenAuthenticator {

    private static final Logger LOG = Logger.getLogger(JwtTokens.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final AuthConfig config;
    private final JWTParser parser;
    private volatile Map<String, Verifier> issuers = Map.of();

    private record Verifier(JwtIssuer issuer, JWTAuthContextInfo context) {
    }

    JwtTokens(AuthConfig config, JWTParser parser) {
        this.config = config;
        this.parser = parser;
    }

    /** Reads the configuration and the keys at start; one that does not read stops the start, naming the field. */
    void start(@Observes StartupEvent event) {
        if (config.authenticationConfig().isPresent()) {
            issuers = read(config.authenticationConfig().get());
        }
    }

    static Map<String, JwtIssuer> issuersOf(Path file) {
        try {
            JsonNode root = YAML.readTree(Files.readAllBytes(file));
            String kind = root.path("kind").asText();
            if (!kind.equals("AuthenticationConfiguration")) {
                throw new IllegalArgumentException("kind: must be AuthenticationConfiguration, got \"" + kind + "\"");
            }
            Map<String, JwtIssuer> issuers = new java.util.LinkedHashMap<>();
            int index = 0;
            for (JsonNode jwt : root.path("jwt")) {
                JwtIssuer issuer = JwtIssuer.of(jwt, index++, file);
                if (issuers.put(issuer.url(), issuer) != null) {
                    throw new IllegalArgumentException("jwt[" + (index - 1) + "].issuer.url: \"" + issuer.url()
                            + "\" is configured twice");
                }
            }
            return issuers;
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("watchgate.auth.authentication-config " + file + ": " + e.getMessage(),
                    e);
        }
    }

    private static Map<String, Verifier> read(Path file) {
        Map<String, Verifier> verifiers = new java.util.LinkedHashMap<>();
        for (JwtIssuer issuer : issuersOf(file).values()) {
            String jwks;
            try {
                jwks = Files.readString(issuer.jwksFile(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException("the keys of " + issuer.url() + " (" + issuer.jwksFile()
                        + ") cannot be read: " + e.getMessage(), e);
            }
            JWTAuthContextInfo context = new JWTAuthContextInfo();
            context.setPublicKeyContent(jwks);
            context.setIssuedBy(issuer.url());
            context.setExpectedAudience(new HashSet<>(issuer.audiences()));
            // the asymmetric algorithms OIDC issuers sign with (kube accepts these too); never "none" or HMAC
            context.setSignatureAlgorithm(EnumSet.of(SignatureAlgorithm.RS256, SignatureAlgorithm.RS384,
                    SignatureAlgorithm.RS512, SignatureAlgorithm.ES256, SignatureAlgorithm.ES384,
                    SignatureAlgorithm.ES512, SignatureAlgorithm.PS256, SignatureAlgorithm.PS384,
                    SignatureAlgorithm.PS512));
            context.setRequiredClaims(Set.of("exp"));
            context.setClockSkew(0);
            verifiers.put(issuer.url(), new Verifier(issuer, context));
        }
        LOG.infof("JWT bearer tokens accepted from %s", verifiers.keySet());
        return Map.copyOf(verifiers);
    }

    @Override
    public Optional<UserInfo> authenticate(String token) {
        Map<String, Verifier> known = issuers;
        if (known.isEmpty()) {
            return Optional.empty();
        }
        Verifier verifier = issuerOf(token).map(known::get).orElse(null);
        if (verifier == null) {
            return Optional.empty(); // not a JWT of an issuer configured here: another authenticator's
        }
        try {
            return userOf(verifier.issuer(), parser.parse(token, verifier.context()));
        } catch (ParseException | RuntimeException e) {
            LOG.debugf("a JWT of %s was refused: %s", verifier.issuer().url(), e.getMessage());
            return Optional.empty();
        }
    }

    /** The unverified {@code iss} of a compact JWS, to choose the issuer that verifies it (as kube does). */
    static Optional<String> issuerOf(String token) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        if (second < 0 || token.indexOf('.', second + 1) >= 0) {
            return Optional.empty();
        }
        try {
            JsonNode payload = JSON.readTree(Base64.getUrlDecoder().decode(token.substring(first + 1, second)));
            JsonNode issuer = payload.get("iss");
            return issuer != null && issuer.isTextual() ? Optional.of(issuer.asText()) : Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    static Optional<UserInfo> userOf(JwtIssuer issuer, JsonWebToken jwt) {
        for (Map.Entry<String, String> rule : issuer.requiredClaims().entrySet()) {
            Object value = jwt.getClaim(rule.getKey());
            if (value == null || !rule.getValue().equals(text(value))) {
                return Optional.empty();
            }
        }
        Object username = jwt.getClaim(issuer.usernameClaim());
        if (username == null || text(username).isEmpty()) {
            return Optional.empty();
        }
        if (issuer.usernameClaim().equals("email")) {
            Object verified = jwt.getClaim("email_verified");
            if (verified != null && !text(verified).equals("true")) {
                return Optional.empty(); // kube: an unverified email does not name a user
            }
        }
        List<String> groups = new ArrayList<>();
        if (issuer.groupsClaim().isPresent()) {
            Object claim = jwt.getClaim(issuer.groupsClaim().get());
            if (claim instanceof Iterable<?> many) {
                many.forEach(group -> groups.add(issuer.groupsPrefix() + text(group)));
            } else if (claim != null) {
                groups.add(issuer.groupsPrefix() + text(claim));
            }
        }
        String uid = issuer.uidClaim().map(jwt::getClaim).map(JwtTokens::text).orElse("");
        return Optional.of(UserInfo.authenticated(issuer.usernamePrefix() + text(username), uid, groups));
    }

    /** A claim's value as text: JSON strings without their quotes (SmallRye gives JSON-P values for some). */
    private static String text(Object value) {
        if (value instanceof jakarta.json.JsonString string) {
            return string.getString();
        }
        return String.valueOf(value);
    }
}
