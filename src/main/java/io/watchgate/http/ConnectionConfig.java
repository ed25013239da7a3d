package io.watchgate.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/**
 * What a connection to the API port must bring, and how soon. How long a client may take to send a request, so that
 * one sending slowly (a byte a second) cannot hold a connection without end. Quarkus' idle timeout
 * ({@code quarkus.http.idle-timeout}, 30 minutes) does not help: each byte counts
 * as activity. None of these touches a response being sent: a watch may be silent for as long as it likes.
 */
@ConfigMapping(prefix = "watchgate.http")
public interface ConnectionConfig {

    /**
     * A new connection's first request head (request line and headers) must have arrived within this time
     * (kube-apiserver's ReadHeaderTimeout is 32 s). 0: no limit.
     */
    @WithDefault("32s")
    Duration requestHeadTimeout();

    /** A request's body must have arrived within this time of its head (kube-apiserver's request timeout); 0: none. */
    @WithDefault("60s")
    Duration requestBodyTimeout();

    /**
     * An HTTP/1.1 connection kept alive after a response must bring its next request head within this time
     * (kube-apiserver's IdleTimeout). 0: no limit.
     */
    @WithDefault("90s")
    Duration keepAliveTimeout();

    /**
     * The names the API is served under, as requests' {@code Host} headers must name them (the port aside): a name,
     * {@code .example.com} for that domain's subdomains, or {@code *} for any. Anything else is 403 before it is
     * served: a page whose DNS name was pointed at the gateway (DNS rebinding) names its own host.
     */
    @WithDefault("*")
    List<String> allowedHosts();
}
