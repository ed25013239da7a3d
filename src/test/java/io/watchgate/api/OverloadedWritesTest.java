package io.watchgate.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.store.StoreException;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

/** A write refused for want of memory is told so the Kubernetes way: 429, a Status, and when to try again. */
class OverloadedWritesTest {

    @Test
    void aWriteRefusedForWantOfMemoryIs429WithRetryAfterAndAStatus() throws Exception {
        Response response = new StatusMappers().overloaded(
                new StoreException.Overloaded("the server is short of memory and takes no writes for now", 1));

        assertEquals(429, response.getStatus());
        assertEquals("1", String.valueOf(response.getHeaders().getFirst("Retry-After")));
        JsonNode status = new ObjectMapper().readTree((String) response.getEntity());
        assertEquals("Status", status.path("kind").asText());
        assertEquals("TooManyRequests", status.path("reason").asText());
        assertEquals(429, status.path("code").asInt());
        assertEquals(1, status.path("details").path("retryAfterSeconds").asInt(), status.toString());
    }
}
