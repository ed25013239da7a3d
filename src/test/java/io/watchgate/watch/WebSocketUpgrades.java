package io.watchgate.watch;

import io.restassured.RestAssured;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A WebSocket upgrade as a browser sends it, over a socket of its own: what came back before the first frame. */
public final class WebSocketUpgrades {

    private WebSocketUpgrades() {
    }

    /**
     * The response head (status line and headers) to an upgrade of {@code pathAndQuery} with {@code origin} (none
     * when null) and {@code host} as the Host header.
     */
    public static String upgrade(String pathAndQuery, String host, String origin) throws IOException {
        return upgrade(pathAndQuery, host, origin, "");
    }

    /** The same, with {@code headers} (each line ending in CRLF) added to the upgrade. */
    public static String upgrade(String pathAndQuery, String host, String origin, String headers)
            throws IOException {
        try (Socket socket = new Socket("localhost", RestAssured.port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n" + headers
                    + (origin == null ? "" : "Origin: " + origin + "\r\n") + "\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0) {
                head.append((char) b);
                if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                    break;
                }
            }
            return head.toString();
        }
    }

    public static int status(String head) {
        return head.startsWith("HTTP/1.1 ") && head.length() >= 12 ? Integer.parseInt(head.substring(9, 12)) : -1;
    }
}
