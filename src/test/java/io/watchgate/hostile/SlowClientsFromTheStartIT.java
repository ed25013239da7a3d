package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A slow client is cut off from the moment the server listens, before anyone else has sent it a request: the
 * deadlines are put in by the server's own first request, not by a client's.
 */
@Isolated
class SlowClientsFromTheStartIT {

    @TempDir
    Path work;

    @Test
    void aHeadThatNeverEndsIsCutBeforeAnyClientHasMadeARequest() throws Exception {
        try (HostileApp app = HostileApp.startUntouched(work, "request deadlines in place",
                "watchgate.http.request-head-timeout=2s");
                Socket socket = new Socket("localhost", app.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET /version HTTP/1.1\r\nHost: localh".getBytes());
            long start = System.nanoTime();
            InputStream in = socket.getInputStream();
            int read;
            try {
                read = in.read();
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the connection was still open after 10 s", e);
            } catch (java.net.SocketException reset) {
                read = -1;
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(-1, read, "the server answered a head that never ended");
            assertTrue(millis >= 1_500 && millis <= 8_000, "closed after " + millis + " ms");
        }
    }
}
