package io.watchgate.authn;

import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.lang.JoseException;

/**
 * The keys one issuer's tokens are verified with, kept current: from a JWKS file, read again when it changes; or
 * from the issuer's discovery document ({@link IssuerDiscovery}), fetched at start, every few minutes, and soon after
 * a token names a key id not among them (the issuer rotated its keys), at most once per {@link #MIN_FETCH_GAP_NANOS}
 * whatever tokens arrive. Fetches and reads run on a worker; a version that does not read keeps the last good keys.
 */
final class IssuerKeys {

    private static final Logger LOG = Logger.getLogger(IssuerKeys.class);
    static final long MIN_FETCH_GAP_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long REFETCH_NANOS = TimeUnit.MINUTES.toNanos(5);
    /** Issuers publish a few keys at once (current, next, last); a token without a key id tries each of them. */
    static final int MAX_KEYS = 16;

    /**
     * A key set that read, as SmallRye JWT's verification contexts, one per signing key with the key parsed once (so a
     * token costs one signature check, not a parse of the key set): by key id, and all of them in the set's order.
     */
    record Keys(Map<String, JWTAuthContextInfo> byId, List<JWTAuthContextInfo> all) {

        Set<String> ids() {
            return byId.keySet();
        }

        /** The contexts a token naming {@code keyId} is verified with; without one, every key, as go-oidc tries. */
        List<JWTAuthContextInfo> forKeyId(String keyId) {
            if (keyId == null) {
                return all;
            }
            JWTAuthContextInfo context = byId.get(keyId);
            return context == null ? List.of() : List.of(context);
        }
    }

    private final JwtIssuer issuer;
    private final Optional<IssuerDiscovery> discovery;
    private final Executor worker;
    private final AtomicBoolean fetching = new AtomicBoolean();
    private volatile Keys keys;
    private volatile long lastFetch = System.nanoTime() - MIN_FETCH_GAP_NANOS;
    private FileStamp seenStamp; // a file's, guarded by this

    IssuerKeys(JwtIssuer issuer, Executor worker) {
        this.issuer = issuer;
        this.worker = worker;
        this.discovery = issuer.jwksFile().isPresent() ? Optional.empty()
                : Optional.of(new IssuerDiscovery(issuer.url(), issuer.discoveryUrl(),
                        issuer.certificateAuthority()));
    }

    /** A JWKS file is read now, and must read (the start stops otherwise); discovery is fetched on the worker. */
    void start() {
        if (issuer.jwksFile().isPresent()) {
            Path file = issuer.jwksFile().get();
            try {
                synchronized (this) {
                    seenStamp = FileStamp.of(file);
                    keys = parse(issuer, read(file));
                }
            } catch (IOException e) {
                throw new IllegalStateException("the keys of " + issuer.url() + " (" + file + ") cannot be read: "
                        + e.getMessage(), e);
            }
        } else {
            fetchSoon();
        }
    }

    /** The keys in use, if any were read yet. */
    Optional<Keys> current() {
        return Optional.ofNullable(keys);
    }

    /** From any thread: a token named a key id the keys in use lack; fetch them again if none was fetched lately. */
    void unknownKeyId() {
        fetchSoon();
    }

    /** Periodically, on a worker: a changed JWKS file is read again; discovered keys are fetched every 5 minutes. */
    void check() {
        if (issuer.jwksFile().isPresent()) {
            rereadFile(issuer.jwksFile().get());
        } else if (System.nanoTime() - lastFetch >= (keys == null ? MIN_FETCH_GAP_NANOS : REFETCH_NANOS)) {
            fetchSoon();
        }
    }

    private void fetchSoon() {
        if (discovery.isEmpty() || System.nanoTime() - lastFetch < MIN_FETCH_GAP_NANOS
                || !fetching.compareAndSet(false, true)) {
            return;
        }
        lastFetch = System.nanoTime();
        worker.execute(() -> {
            try {
                Keys fetched = parse(issuer, discovery.get().keys());
                if (keys == null || !fetched.ids().equals(keys.ids())) {
                    LOG.infof("the keys of %s: %s", issuer.url(), fetched.ids());
                }
                keys = fetched;
            } catch (IOException | RuntimeException e) {
                LOG.warnf("the keys of %s could not be fetched (%s); %s", issuer.url(), e.getMessage(),
                        keys == null ? "its tokens are refused until they are" : "the last ones stay in use");
            } finally {
                lastFetch = System.nanoTime();
                fetching.set(false);
            }
        });
    }

    private synchronized void rereadFile(Path file) {
        try {
            FileStamp stamp = FileStamp.of(file);
            if (stamp.equals(seenStamp)) {
                return;
            }
            seenStamp = stamp;
            keys = parse(issuer, read(file));
            LOG.infof("the keys of %s were read again from %s: %s", issuer.url(), file, keys.ids());
        } catch (IOException | RuntimeException e) {
            LOG.warnf("the keys of %s (%s) could not be read again (%s); the last ones stay in use", issuer.url(),
                    file, e.getMessage());
        }
    }

    private static String read(Path file) throws IOException {
        try (java.io.InputStream in = Files.newInputStream(file)) {
            byte[] content = in.readNBytes(IssuerDiscovery.MAX_BYTES + 1);
            if (content.length > IssuerDiscovery.MAX_BYTES) {
                throw new IOException("larger than " + IssuerDiscovery.MAX_BYTES + " bytes");
            }
            return new String(content, StandardCharsets.UTF_8);
        }
    }

    /** A JWKS as SmallRye JWT verifies with it, for this issuer and its audiences; an IOException if unreadable. */
    static Keys parse(JwtIssuer issuer, String jwks) throws IOException {
        Map<String, JWTAuthContextInfo> byId = new LinkedHashMap<>();
        List<JWTAuthContextInfo> all = new ArrayList<>();
        try {
            for (JsonWebKey key : new JsonWebKeySet(jwks).getJsonWebKeys()) {
                if (!(key instanceof PublicJsonWebKey signing) || "enc".equals(key.getUse())
                        || all.size() == MAX_KEYS) {
                    continue; // not a public key of signatures, or past the keys any issuer publishes at once
                }
                JWTAuthContextInfo context = context(issuer, signing.getPublicKey());
                all.add(context);
                if (key.getKeyId() != null) {
                    byId.putIfAbsent(key.getKeyId(), context);
                }
            }
        } catch (JoseException | RuntimeException e) {
            throw new IOException("not a JSON Web Key Set: " + e.getMessage(), e);
        }
        if (all.isEmpty()) {
            throw new IOException("the key set holds no public key for signatures");
        }
        return new Keys(Collections.unmodifiableMap(byId), List.copyOf(all));
    }

    private static JWTAuthContextInfo context(JwtIssuer issuer, PublicKey key) {
        JWTAuthContextInfo context = new JWTAuthContextInfo();
        context.setPublicVerificationKey(key);
        context.setIssuedBy(issuer.url());
        context.setExpectedAudience(new HashSet<>(issuer.audiences()));
        // the asymmetric algorithms OIDC issuers sign with (kube accepts these too); never "none" or HMAC
        context.setSignatureAlgorithm(EnumSet.of(SignatureAlgorithm.RS256, SignatureAlgorithm.RS384,
                SignatureAlgorithm.RS512, SignatureAlgorithm.ES256, SignatureAlgorithm.ES384,
                SignatureAlgorithm.ES512, SignatureAlgorithm.PS256, SignatureAlgorithm.PS384,
                SignatureAlgorithm.PS512));
        context.setRequiredClaims(Set.of("exp"));
        context.setClockSkew(0);
        return context;
    }
}
