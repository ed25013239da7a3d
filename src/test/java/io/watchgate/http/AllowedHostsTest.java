package io.watchgate.http;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** With allowed hosts set, a request naming another host (a DNS-rebound page's) is 403, whatever it asks. */
@QuarkusTest
@TestProfile(BrowserFacing.class)
class AllowedHostsTest {

    @Test
    void theNamesServedUnderAreServed() throws Exception {
        assertTrue(get("localhost:" + RestAssured.port).startsWith("HTTP/1.1 200"));
        assertTrue(get("LOCALHOST").startsWith("HTTP/1.1 200"));
        assertTrue(get("api.gateway.example:443").startsWith("HTTP/1.1 200"));
    }

    @Test
    void anyOtherHostIsForbidden() throws Exception {
        for (String host : new String[] {"evil.example:" + RestAssured.port, "127.0.0.1", "gateway.example.evil",
                "xgateway.example"}) {
            String answer = get(host);
            assertTrue(answer.startsWith("HTTP/1.1 403"), host + ": " + answer);
            assertTrue(answer.contains("\"reason\":\"Forbidden\""), answer);
        }
        String hostless = request("GET /api/v1/namespaces/default HTTP/1.0\r\n\r\n");
        assertTrue(hostless.startsWith("HTTP/1.0 403"), "no Host at all: " + hostless);
    }

    private static String get(String host) throws IOException {
        return request("GET /api/v1/namespaces/default HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    }

    private static String request(String text) throws IOException {
        try (Socket socket = new Socket("localhost", RestAssured.port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
