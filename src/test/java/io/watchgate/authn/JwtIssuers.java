package io.watchgate.authn;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.List;
import java.util.Map;
import org.jose4j.jwk.EcJwkGenerator;
import org.jose4j.jwk.EllipticCurveJsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.keys.EllipticCurves;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;

/**
 * The two OIDC issuers whose JWTs the production-like server ({@code authz.RbacOn}) accepts, configured as
 * kube-apiserver's AuthenticationConfiguration ({@link #CONFIG}), with keys of the tests': one whose keys are in a
 * file ({@link #ISSUER}, {@link #KEY}), and one found through its discovery document ({@link DiscoveredIssuer}).
 * {@link #token} signs what a test asks for.
 */
public final class JwtIssuers {

    static final String ISSUER = "https://issuer.watchgate.test";
    static final String AUDIENCE = "watchgate";
    static final RsaJsonWebKey KEY = committedKey("issuer-key-1.p8", "key-1");
    /** A key of nobody's: the issuer does not publish it. */
    static final RsaJsonWebKey STRANGER = committedKey("stranger-key-1.p8", "key-1");
    /** The AuthenticationConfiguration file naming both issuers. */
    public static final Path CONFIG = write();

    private JwtIssuers() {
    }

    /** A token signed with {@code key}, with these claims over sensible defaults (issuer, audience, an hour). */
    static String token(PublicJsonWebKey key, Map<String, Object> claims) throws Exception {
        JwtClaims all = new JwtClaims();
        all.setIssuer(ISSUER);
        all.setAudience(AUDIENCE);
        all.setExpirationTimeMinutesInTheFuture(60);
        all.setIssuedAtToNow();
        all.setSubject("subject-1");
        claims.forEach((name, value) -> {
            if (name.equals("exp")) {
                all.setExpirationTime(NumericDate.fromSeconds((Long) value));
            } else {
                all.setClaim(name, value);
            }
        });
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(all.toJson());
        jws.setKey(key.getPrivateKey());
        jws.setKeyIdHeaderValue(key.getKeyId());
        jws.setAlgorithmHeaderValue(key instanceof RsaJsonWebKey ? AlgorithmIdentifiers.RSA_USING_SHA256
                : AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256);
        return jws.getCompactSerialization();
    }

    /**
     * An RSA key, as most issuers sign (RS256). Making one takes a good part of a second of CPU; the keys a test only
     * needs to be distinct are {@link #ecKey}s.
     */
    static RsaJsonWebKey key(String id) {
        try {
            RsaJsonWebKey key = RsaJwkGenerator.generateJwk(2048);
            key.setKeyId(id);
            return key;
        } catch (Exception e) {
            throw new IllegalStateException("making an RSA key", e);
        }
    }

    /**
     * An RSA key of the test resources ({@code jwt/}, PKCS #8 DER: {@code openssl genpkey -algorithm RSA}, then
     * {@code openssl pkcs8 -topk8 -nocrypt -outform DER}; a test key, of no use outside these tests): Quarkus
     * initializes this class once for each application that loads it, four times a run, and making the two RSA keys
     * each time took a second or more of CPU.
     */
    private static RsaJsonWebKey committedKey(String resource, String id) {
        try (InputStream in = JwtIssuers.class.getResourceAsStream("/jwt/" + resource)) {
            byte[] der = in.readAllBytes();
            KeyFactory rsa = KeyFactory.getInstance("RSA");
            RSAPrivateCrtKey privateKey = (RSAPrivateCrtKey) rsa.generatePrivate(new PKCS8EncodedKeySpec(der));
            PublicKey publicKey = rsa.generatePublic(
                    new RSAPublicKeySpec(privateKey.getModulus(), privateKey.getPublicExponent()));
            RsaJsonWebKey key = new RsaJsonWebKey((RSAPublicKey) publicKey);
            key.setPrivateKey(privateKey);
            key.setKeyId(id);
            return key;
        } catch (Exception e) {
            throw new IllegalStateException("reading the test key " + resource, e);
        }
    }

    /** An elliptic-curve key (ES256): an issuer's other keys, a stranger's, one made for a single test. */
    static EllipticCurveJsonWebKey ecKey(String id) {
        try {
            EllipticCurveJsonWebKey key = EcJwkGenerator.generateJwk(EllipticCurves.P256);
            key.setKeyId(id);
            return key;
        } catch (Exception e) {
            throw new IllegalStateException("making an EC key", e);
        }
    }

    private static Path write() {
        try {
            Path dir = Files.createTempDirectory("watchgate-jwt-");
            dir.toFile().deleteOnExit();
            Path jwks = dir.resolve("jwks.json");
            Files.writeString(jwks, new JsonWebKeySet(List.of(KEY)).toJson());
            Path config = dir.resolve("authentication-config.yaml");
            Files.writeString(config, String.join("\n",
                    "apiVersion: apiserver.config.k8s.io/v1beta1",
                    "kind: AuthenticationConfiguration",
                    "jwt:",
                    "- issuer:",
                    "    url: " + ISSUER,
                    "    audiences: [" + AUDIENCE + "]",
                    "    jwksFile: jwks.json",
                    "  claimValidationRules:",
                    "  - claim: hd",
                    "    requiredValue: example.com",
                    "  claimMappings:",
                    "    username: {claim: email, prefix: \"oidc:\"}",
                    "    groups: {claim: roles, prefix: \"oidc:\"}",
                    "    uid: {claim: sub}",
                    "") + DiscoveredIssuer.entry());
            jwks.toFile().deleteOnExit();
            config.toFile().deleteOnExit();
            return config;
        } catch (Exception e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
