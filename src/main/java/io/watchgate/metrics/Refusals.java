package io.watchgate.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;
import java.util.EnumMap;
import java.util.Map;

/**
 * Requests refused to protect the server or its users, by reason:
 * {@code watchgate_refusals_total{reason="requests-inflight"}}. One series per reason, registered as the routes that
 * count are made at start (a singleton, not a lazy proxy), so a scrape shows zeros rather than nothing, and counting
 * is one increment.
 */
@Singleton
public class Refusals {

    /** Why a request was refused; each is the {@code reason} tag's value. */
    public enum Reason {
        /** A body in a media type no write reads (a cross-site form or a body without Content-Type among them). */
        UNSUPPORTED_MEDIA_TYPE("unsupported-media-type"),
        /** A WebSocket upgrade from a page of an origin not allowed. */
        WEBSOCKET_ORIGIN("websocket-origin"),
        /** A request whose Host is not among the allowed hosts (DNS rebinding). */
        HOST("host"),
        /** A read past {@code watchgate.api.max-requests-inflight}. */
        REQUESTS_INFLIGHT("requests-inflight"),
        /** A write past {@code watchgate.api.max-mutating-requests-inflight}. */
        MUTATING_REQUESTS_INFLIGHT("mutating-requests-inflight"),
        /** A connection closed for not sending a request's head (or a write's body) in time. */
        SLOW_REQUEST("slow-request"),
        /** A JSON patch of more operations than kube-apiserver takes (10,000). */
        JSON_PATCH_OPERATIONS("json-patch-operations"),
        /** A JSON patch that would shift more array elements than {@code watchgate.patch.max-json-patch-element-moves}. */
        JSON_PATCH_ELEMENT_MOVES("json-patch-element-moves"),
        /** A request without credentials (anonymous requests off) or with credentials no authenticator recognized. */
        UNAUTHORIZED("unauthorized"),
        /** A request the user may not make. */
        FORBIDDEN("forbidden"),
        /** A request with a session cookie that a page the server does not trust may have sent (CSRF). */
        CROSS_SITE("cross-site"),
        /** A request past {@code watchgate.fairness.max-requests-inflight-per-user}. */
        USER_REQUESTS_INFLIGHT("user-requests-inflight"),
        /** A watch past {@code watchgate.fairness.max-watches-per-user}. */
        USER_WATCHES("user-watches"),
        /** A write past {@code watchgate.fairness.mutating-requests-per-second-per-user} and its burst. */
        USER_WRITE_RATE("user-write-rate"),
        /** A stream (or a WebSocket's watch message) past {@code watchgate.streams.max-watches}. */
        STREAM_WATCHES("stream-watches"),
        /** A WebSocket stream's watch message past {@code watchgate.streams.watch-messages-per-second}. */
        STREAM_MESSAGES("stream-messages");

        private final String tag;

        Reason(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    private final Map<Reason, Counter> counters = new EnumMap<>(Reason.class);

    public Refusals(MeterRegistry registry) {
        for (Reason reason : Reason.values()) {
            counters.put(reason, Counter.builder("watchgate.refusals").tag("reason", reason.tag())
                    .description("requests refused to protect the server or its users, by reason").register(registry));
        }
    }

    public void count(Reason reason) {
        counters.get(reason).increment();
    }
}
