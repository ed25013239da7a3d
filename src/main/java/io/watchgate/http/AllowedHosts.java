package io.watchgate.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.RouteOrder;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusBody;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Refuses requests whose {@code Host} names no host the API is served under ({@code watchgate.http.allowed-hosts}),
 * the one defence against DNS rebinding: a page whose name now resolves to the gateway is same-origin with it to the
 * browser, but its requests still name the page's host.
 */
@ApplicationScoped
public class AllowedHosts {

    private final boolean any;
    private final List<String> names = new ArrayList<>();
    private final List<String> domains = new ArrayList<>();
    private final Refusals refusals;

    AllowedHosts(ConnectionConfig config, Refusals refusals) {
        this.refusals = refusals;
        boolean wildcard = false;
        for (String entry : config.allowedHosts()) {
            String host = entry.trim().toLowerCase(Locale.ROOT);
            if (host.equals("*")) {
                wildcard = true;
            } else if (host.startsWith(".")) {
                domains.add(host);
            } else if (!host.isEmpty()) {
                names.add(host);
            }
        }
        this.any = wildcard;
    }

    void install(@Observes Router router) {
        if (!any) {
            router.route().order(RouteOrder.ALLOWED_HOSTS.order()).handler(this::check);
        }
    }

    private void check(RoutingContext context) {
        HostAndPort authority = context.request().authority();
        if (authority != null && allows(authority.host())) {
            context.next();
            return;
        }
        refusals.count(Refusals.Reason.HOST);
        String host = authority == null ? "none" : authority.host();
        ApiException e = new ApiException(403, "Forbidden", "the host the request names ("
                + (host.length() > 100 ? host.substring(0, 100) + "..." : host)
                + ") is not one this server is served under (watchgate.http.allowed-hosts)");
        context.response().setStatusCode(403).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CONNECTION, "close").end(StatusBody.of(e).toString());
    }

    boolean allows(String host) {
        String bare = host.toLowerCase(Locale.ROOT);
        if (bare.startsWith("[") && bare.endsWith("]")) {
            bare = bare.substring(1, bare.length() - 1);
        }
        if (bare.endsWith(".")) {
            bare = bare.substring(0, bare.length() - 1); // "localhost." names localhost
        }
        if (names.contains(bare)) {
            return true;
        }
        for (String domain : domains) {
            if (bare.endsWith(domain)) {
                return true;
            }
        }
        return false;
    }
}
