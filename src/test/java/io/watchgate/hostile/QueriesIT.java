package io.watchgate.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;

/** Queries a client may bend any way it likes: answered with a Status, fast, without holding up anyone else. */
@ExtendWith(SharedHostileApp.class)
@Isolated
class QueriesIT {

    static HostileApp app;

    @BeforeAll
    static void start(HostileApp shared) throws Exception {
        app = shared;
    }

    @Test
    void aMalformedEscapeInTheQueryIsABadRequest() throws Exception {
        HostileApp.RawResponse response = Hostile.whileOthersAreServed(app, () -> app.raw(
                "GET /api/v1/namespaces/default/configmaps?labelSelector=%ZZ HTTP/1.1\r\nHost: localhost\r\n",
                new byte[0]));
        assertEquals(400, response.statusCode(), response.head());
    }

    @Test
    void aLimitThatIsNoNumberIsABadRequest() throws Exception {
        HttpResponse<byte[]> response = Hostile.answer(app, Duration.ofSeconds(2),
                () -> app.send(app.request("/api/v1/namespaces/default/configmaps?limit=99999999999999999999").GET()));
        Hostile.refused(response, 400, "BadRequest");
    }

    @Test
    void aSelectorOfEightThousandRequirementsIsAnsweredFast() throws Exception {
        StringBuilder selector = new StringBuilder();
        for (int i = 0; i < 8000; i++) {
            selector.append(i == 0 ? "" : ",").append("k").append(i);
        }
        HttpResponse<byte[]> response = Hostile.answer(app, Duration.ofSeconds(2), () -> app.send(
                app.request("/api/v1/namespaces/default/configmaps?labelSelector=" + selector).GET()));
        assertEquals(200, response.statusCode(), new String(response.body()));
    }
}
