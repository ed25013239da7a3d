package io.watchgate.tls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import javax.net.ssl.SSLContext;

/** A client of the test server's HTTPS port, with the JDK's client: HTTP/2 where the server offers it by ALPN. */
public final class Https {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;
    private final URL base;

    private Https(HttpClient client, URL base) {
        this.client = client;
        this.base = base;
    }

    /** Trusting the test server's CA; presenting {@code identity} as client certificate when not null. */
    public static Https to(URL base, TestPki.Issued identity) throws Exception {
        SSLContext context = TestPki.context(TestTls.SERVER_CA.certificate(), identity);
        return new Https(HttpClient.newBuilder().sslContext(context).version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5)).build(), base);
    }

    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + path))
                .timeout(Duration.ofSeconds(10));
    }

    public HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Who the server takes the sender for: {@code kubectl auth whoami}'s SelfSubjectReview. */
    public HttpResponse<String> whoami(String token) throws Exception {
        HttpRequest.Builder review = request("/apis/authentication.k8s.io/v1/selfsubjectreviews")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}"));
        if (token != null) {
            review.header("Authorization", "Bearer " + token);
        }
        return send(review);
    }

    public static JsonNode json(HttpResponse<String> response) throws Exception {
        return JSON.readTree(response.body());
    }
}
