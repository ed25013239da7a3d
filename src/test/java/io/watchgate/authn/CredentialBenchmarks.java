package io.watchgate.authn;

import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What recognizing a bearer token costs on an event loop: a static token (a digest and a map lookup) against a JWT
 * (an RS256 signature check), with the issuer's key parsed once (as {@link IssuerKeys} keeps it) and with the key set
 * parsed at every token (SmallRye's {@code publicKeyContent}, as the first JWT version did), and a JWT verified in
 * the last seconds (the authenticator's cache).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CredentialBenchmarks {

    private final JWTParser parser = new DefaultJWTParser();
    private TokenTable tokens;
    private JwtIssuer issuer;
    private JWTAuthContextInfo keyParsedOnce;
    private JWTAuthContextInfo keySetPerToken;
    private String jwt;
    private JwtTokens jwtTokens;

    @Setup
    public void prepare() throws Exception {
        tokens = TokenTable.of("static-token-0123456789", UserInfo.authenticated("alice", "", List.of("devs")));
        RsaJsonWebKey signing = JwtIssuers.key("current");
        String jwks = new JsonWebKeySet(List.of(JwtIssuers.key("previous"), signing, JwtIssuers.key("next")))
                .toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY);
        Path dir = Files.createTempDirectory("watchgate-bench-");
        Files.writeString(dir.resolve("keys.json"), jwks);
        Path config = dir.resolve("auth.yaml");
        Files.writeString(config, "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\n"
                + "jwt:\n- issuer: {url: '" + JwtIssuers.ISSUER + "', audiences: [" + JwtIssuers.AUDIENCE + "], "
                + "jwksFile: keys.json}\n  claimMappings: {username: {claim: sub, prefix: 'oidc:'}}\n");
        issuer = JwtTokens.issuersOf(config).get(JwtIssuers.ISSUER);
        keyParsedOnce = IssuerKeys.parse(issuer, jwks).forKeyId("current").get(0);
        keySetPerToken = new JWTAuthContextInfo();
        keySetPerToken.setPublicKeyContent(jwks);
        keySetPerToken.setIssuedBy(issuer.url());
        keySetPerToken.setExpectedAudience(Set.copyOf(issuer.audiences()));
        keySetPerToken.setSignatureAlgorithm(EnumSet.of(SignatureAlgorithm.RS256));
        keySetPerToken.setRequiredClaims(Set.of("exp"));
        jwt = JwtIssuers.token(signing, Map.of());
        jwtTokens = new JwtTokens(null, parser, null);
        jwtTokens.use(JwtTokens.issuersOf(config).values(), Runnable::run);
        if (jwtKeyParsedOnce().isEmpty() || jwtKeySetParsedPerToken().isEmpty() || jwtVerifiedLately().isEmpty()) {
            throw new IllegalStateException("the benchmark's token does not verify");
        }
    }

    @Benchmark
    public Optional<UserInfo> staticToken() {
        return tokens.find("static-token-0123456789");
    }

    @Benchmark
    public Optional<UserInfo> jwtKeyParsedOnce() throws Exception {
        return JwtTokens.userOf(issuer, parser.parse(jwt, keyParsedOnce));
    }

    /** What a client repeating its token pays: the authenticator's cache of tokens verified in the last 10 s. */
    @Benchmark
    public Optional<UserInfo> jwtVerifiedLately() {
        return jwtTokens.authenticate(jwt);
    }

    @Benchmark
    public Optional<UserInfo> jwtKeySetParsedPerToken() throws Exception {
        return JwtTokens.userOf(issuer, parser.parse(jwt, keySetPerToken));
    }
}
