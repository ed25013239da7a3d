package io.watchgate.status;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/** A Status error answered from a Vert.x route (ahead of RESTEasy, whose exception mappers answer the rest). */
public final class StatusResponses {

    private StatusResponses() {
    }

    public static void end(HttpServerResponse response, ApiException e) {
        response.setStatusCode(e.code()).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(StatusBody.of(e).toString());
    }
}
