package io.watchgate.authn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.tls.Pem;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * An OIDC issuer's keys, found as kube-apiserver finds them: its discovery document ({@code issuer.discoveryURL}, or
 * {@code issuer.url} + {@code /.well-known/openid-configuration}), whose {@code issuer} must be the configured URL,
 * names {@code jwks_uri}, which serves the keys. Over HTTPS only, trusting {@code issuer.certificateAuthority} when
 * set (else the JDK's CAs), without redirects, each answer bounded in time and bytes. Blocking: called on a worker.
 */
final class IssuerDiscovery {

    /** A discovery document or key set is a few kilobytes. */
    static final int MAX_BYTES = 1 << 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String issuer;
    private final URI discovery;
    private final HttpClient client;

    IssuerDiscovery(String issuer, Optional<String> discoveryUrl, Optional<String> certificateAuthority) {
        this.issuer = issuer;
        this.discovery = URI.create(discoveryUrl.orElse(withoutTrailingSlash(issuer)
                + "/.well-known/openid-configuration"));
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER);
        certificateAuthority.ifPresent(pem -> builder.sslContext(trusting(pem)));
        this.client = builder.build();
    }

    /** The issuer's key set (JWKS) as it serves it now. */
    String keys() throws IOException {
        String uri = jwksUri(JSON.readTree(get(discovery)), issuer);
        return new String(get(URI.create(uri)), StandardCharsets.UTF_8);
    }

    /** {@code jwks_uri} of a discovery document, which must name {@code issuer} as its issuer (kube checks it too). */
    static String jwksUri(JsonNode document, String issuer) throws IOException {
        String named = document.path("issuer").asText("");
        if (!named.equals(issuer)) {
            throw new IOException("the discovery document names the issuer \"" + shown(named) + "\", not \""
                    + issuer + "\"");
        }
        String uri = document.path("jwks_uri").asText("");
        if (!uri.startsWith("https://")) {
            throw new IOException("the discovery document's jwks_uri must be an https URL, got \"" + shown(uri)
                    + "\"");
        }
        return uri;
    }

    /** The body of {@code uri}'s 200 answer, all of it within {@link #TIMEOUT}, or an IOException saying why not. */
    private byte[] get(URI uri) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Accept", "application/json")
                .GET().build();
        CompletableFuture<HttpResponse<byte[]>> answer = client.sendAsync(request,
                BoundedBody.handler(MAX_BYTES, uri.toString()));
        try {
            HttpResponse<byte[]> response = answer.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (response.statusCode() != 200) {
                throw new IOException(uri + " answered " + response.statusCode());
            }
            return response.body();
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new IOException(uri + " did not answer whole within " + TIMEOUT.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            throw new IOException(uri + ": " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while fetching " + uri, e);
        }
    }

    /** Trusts the certificates of {@code pem} alone, as kube's {@code certificateAuthority} (PEM text). */
    static SSLContext trusting(String pem) {
        try {
            List<X509Certificate> certificates = Pem.certificates(pem.getBytes(StandardCharsets.US_ASCII));
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int index = 0;
            for (X509Certificate certificate : certificates) {
                store.setCertificateEntry("ca-" + index++, certificate);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("issuer.certificateAuthority: " + e.getMessage(), e);
        }
    }

    private static String withoutTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    private static String shown(String text) {
        return text.length() <= 256 ? text : text.substring(0, 256) + "...";
    }
}
