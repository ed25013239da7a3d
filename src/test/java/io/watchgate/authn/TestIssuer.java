package io.watchgate.authn;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.watchgate.tls.TestPki;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;

/**
 * An OIDC issuer as the server meets one: HTTPS with a certificate of a CA made for it, a discovery document naming
 * its key set, and the key set it publishes now ({@link #publish}), counting how often the keys are fetched.
 */
final class TestIssuer {

    final String url;
    final String caPem;
    private final AtomicReference<String> keys = new AtomicReference<>();
    private final AtomicInteger keyFetches = new AtomicInteger();

    private TestIssuer(HttpsServer server, String caPem) {
        this.url = "https://localhost:" + server.getAddress().getPort();
        this.caPem = caPem;
        server.createContext("/.well-known/openid-configuration", exchange -> answer(exchange,
                "{\"issuer\":\"" + url + "\",\"jwks_uri\":\"" + url + "/keys\"}"));
        server.createContext("/keys", exchange -> {
            keyFetches.incrementAndGet();
            answer(exchange, keys.get());
        });
        server.start();
    }

    static TestIssuer start(JsonWebKey... published) throws Exception {
        TestPki.Issued authority = TestPki.ca("test-issuer-ca");
        TestPki.Issued serving = authority.server("localhost", "127.0.0.1");
        KeyStore own = KeyStore.getInstance("PKCS12");
        own.load(null, null);
        own.setKeyEntry("issuer", serving.keys().getPrivate(), new char[0],
                new X509Certificate[] {serving.certificate()});
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(own, new char[0]);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(context));
        TestIssuer issuer = new TestIssuer(server, authority.certificatePem());
        issuer.publish(published);
        return issuer;
    }

    /** From now on the issuer publishes these keys (public parts only). */
    void publish(JsonWebKey... published) {
        keys.set(new JsonWebKeySet(List.of(published)).toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
    }

    int keyFetches() {
        return keyFetches.get();
    }

    private static void answer(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
