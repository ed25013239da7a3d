package io.watchgate.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

/**
 * JWT bearer tokens of OIDC issuers, kube-apiserver's JWT authenticator as its AuthenticationConfiguration
 * ({@code watchgate.auth.authentication-config}) sets it up: a token whose {@code iss} is a configured issuer is
 * verified by SmallRye JWT (signature against the issuer's keys, {@code exp} and {@code nbf}, one of the audiences),
 * then checked against the claim validation rules, and its claims name the user: username (prefixed), groups
 * (prefixed), uid. A token of another issuer, or not a JWT, is left to the other authenticators. The issuers' keys
 * are kept current by {@link IssuerKeys}; a token naming a key id they lack is 401 and has them fetched again.
 */
@ApplicationScoped
public class JwtTokens implements TokenAuthenticator {

    private static final Logger LOG = Logger.getLogger(JwtTokens.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final AuthConfig config;
    private final JWTParser parser;
    private final Vertx vertx;
    /**
     * Tokens verified lately, by digest, as kube-apiserver caches them: a request that repeats a token (every request
     * of a client, within seconds) costs a digest and a lookup instead of a signature check (about 100 us). Only
     * tokens that verified are kept, so filling it takes valid tokens; each lasts {@link #VERIFIED_FOR}, never past
     * its {@code exp}.
     */
    private final Cache<String, Verified> verified = Caffeine.newBuilder().maximumSize(MAX_VERIFIED)
            .expireAfterWrite(VERIFIED_FOR).executor(Runnable::run).build();
    private volatile Map<String, Verifier> issuers = Map.of();
    private long timer = -1;

    private record Verifier(JwtIssuer issuer, IssuerKeys keys) {
    }

    private record Verified(UserInfo user, Optional<java.time.Instant> expiry) {
    }

    static final java.time.Duration VERIFIED_FOR = java.time.Duration.ofSeconds(10);
    private static final int MAX_VERIFIED = 4096;

    JwtTokens(AuthConfig config, JWTParser parser, Vertx vertx) {
        this.config = config;
        this.parser = parser;
        this.vertx = vertx;
    }

    /**
     * Reads the configuration and the JWKS files at start (one that does not read stops the start, naming the field),
     * starts fetching discovered keys, and checks both again every {@code token-file-check-interval}.
     */
    void start(@Observes StartupEvent event) {
        if (config.authenticationConfig().isEmpty()) {
            return;
        }
        Executor worker = task -> vertx.executeBlocking(() -> {
            task.run();
            return null;
        }, false);
        use(issuersOf(config.authenticationConfig().get()).values(), worker);
        LOG.infof("JWT bearer tokens accepted from %s", issuers.keySet());
        long interval = Math.max(1000, config.tokenFileCheckInterval().toMillis());
        timer = vertx.setPeriodic(interval, id -> worker.execute(
                () -> issuers.values().forEach(verifier -> verifier.keys().check())));
    }

    /** Accepts the tokens of {@code configured}, their keys read (files) or fetched (discovery) by {@code worker}. */
    void use(java.util.Collection<JwtIssuer> configured, Executor worker) {
        Map<String, Verifier> verifiers = new LinkedHashMap<>();
        for (JwtIssuer issuer : configured) {
            IssuerKeys keys;
            try {
                keys = new IssuerKeys(issuer, worker);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("watchgate.auth.authentication-config, issuer " + issuer.url() + ": "
                        + e.getMessage(), e);
            }
            keys.start();
            verifiers.put(issuer.url(), new Verifier(issuer, keys));
        }
        issuers = Map.copyOf(verifiers);
    }

    void stop(@Observes ShutdownEvent event) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
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
        String digest = CredentialDigest.of(token);
        Verified hit = verified.getIfPresent(digest);
        if (hit != null) {
            if (hit.expiry().isEmpty() || hit.expiry().get().isAfter(java.time.Instant.now())) {
                return Optional.of(hit.user());
            }
            verified.invalidate(digest);
        }
        Optional<UserInfo> user = verify(verifier, token);
        user.ifPresent(found -> verified.put(digest, new Verified(found, expiry(token))));
        return user;
    }

    private Optional<UserInfo> verify(Verifier verifier, String token) {
        IssuerKeys.Keys keys = verifier.keys().current().orElse(null);
        String keyId = partOf(token, 0).map(header -> header.get("kid")).filter(JsonNode::isTextual)
                .map(JsonNode::asText).orElse(null);
        List<JWTAuthContextInfo> candidates = keys == null ? List.of() : keys.forKeyId(keyId);
        if (candidates.isEmpty()) {
            verifier.keys().unknownKeyId(); // the issuer may have rotated its keys: fetched again, at most so often
            return Optional.empty();
        }
        for (JWTAuthContextInfo context : candidates) {
            try {
                return userOf(verifier.issuer(), parser.parse(token, context));
            } catch (ParseException | RuntimeException e) {
                LOG.debugf("a JWT of %s was refused: %s", verifier.issuer().url(), e.getMessage());
            }
        }
        return Optional.empty();
    }

    /** A token this authenticator recognized (so verified, {@code exp} required) ends at its {@code exp}. */
    @Override
    public Optional<java.time.Instant> expiry(String token) {
        return partOf(token, 1).map(payload -> payload.get("exp")).filter(JsonNode::canConvertToLong)
                .map(exp -> java.time.Instant.ofEpochSecond(Math.max(0, Math.min(exp.asLong(),
                        java.time.Instant.MAX.getEpochSecond()))));
    }

    /** The unverified {@code iss} of a compact JWS, to choose the issuer that verifies it (as kube does). */
    static Optional<String> issuerOf(String token) {
        return partOf(token, 1).map(payload -> payload.get("iss")).filter(JsonNode::isTextual).map(JsonNode::asText);
    }

    /** The header (0) or payload (1) of a compact JWS, unverified. */
    private static Optional<JsonNode> partOf(String token, int part) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        if (second < 0 || token.indexOf('.', second + 1) >= 0) {
            return Optional.empty();
        }
        try {
            String encoded = part == 0 ? token.substring(0, first) : token.substring(first + 1, second);
            return Optional.ofNullable(JSON.readTree(Base64.getUrlDecoder().decode(encoded)));
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
