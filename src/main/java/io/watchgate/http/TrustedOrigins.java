package io.watchgate.http;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;

/**
 * Which web pages the server trusts with what a browser sends of its own accord: a WebSocket upgrade (a browser lets
 * any page open one to any server, and read what comes back without asking CORS) and the session cookie. Such a
 * request carries the page's {@code Origin}, which is all a server has to tell a page of its own, or of an origin it
 * trusts, from any site the user happens to visit. The server's own origin (scheme, host and port as the request
 * names them) is trusted, and, when CORS is on ({@code quarkus.http.cors.enabled}), what
 * {@code quarkus.http.cors.origins} lists: {@code *} for any, an entry between slashes as a regular expression, as
 * Quarkus' CORS filter reads that setting. {@code *} never extends to the session cookie (CORS forbids credentials
 * with it too).
 */
public final class TrustedOrigins {

    private final boolean any;
    private final List<String> listed = new ArrayList<>();
    private final List<Pattern> patterns = new ArrayList<>();

    private TrustedOrigins(boolean corsEnabled, List<String> origins) {
        boolean wildcard = false;
        if (corsEnabled) {
            for (String origin : origins) {
                String entry = origin.trim();
                if (entry.equals("*")) {
                    wildcard = true;
                } else if (entry.length() > 2 && entry.startsWith("/") && entry.endsWith("/")) {
                    patterns.add(Pattern.compile(entry.substring(1, entry.length() - 1)));
                } else if (!entry.isEmpty()) {
                    listed.add(entry);
                }
            }
        }
        this.any = wildcard;
    }

    /** The origins the application's configuration allows (read once: Quarkus reads CORS settings at start too). */
    public static TrustedOrigins configured(Config config) {
        return new TrustedOrigins(config.getOptionalValue("quarkus.http.cors.enabled", Boolean.class).orElse(false),
                config.getOptionalValues("quarkus.http.cors.origins", String.class).orElse(List.of()));
    }

    public static TrustedOrigins of(boolean corsEnabled, List<String> origins) {
        return new TrustedOrigins(corsEnabled, origins);
    }

    /** Whether {@code request}, a WebSocket upgrade, may be served to the page that sent it (if a page did). */
    public boolean allows(HttpServerRequest request) {
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        return origin == null || allows(origin, request.scheme(), request.authority());
    }

    /** Whether the page of {@code origin} may act with its browser's credentials: listed, never by {@code *}. */
    public boolean allowsWithCredentials(String origin, HttpServerRequest request) {
        return listedOrOwn(origin, request.scheme(), request.authority());
    }

    boolean allows(String origin, String scheme, HostAndPort authority) {
        return any || listedOrOwn(origin, scheme, authority);
    }

    boolean listedOrOwn(String origin, String scheme, HostAndPort authority) {
        if (sameOrigin(origin, scheme, authority)) {
            return true;
        }
        for (String entry : listed) {
            if (entry.equalsIgnoreCase(origin)) {
                return true;
            }
        }
        for (Pattern pattern : patterns) {
            if (pattern.matcher(origin).matches()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code origin} is the server's own as this request reached it: the same scheme, host and port. A page
     * served from a DNS name that now resolves to this server passes too; allowed hosts are what stops that.
     */
    static boolean sameOrigin(String origin, String scheme, HostAndPort authority) {
        if (authority == null || scheme == null) {
            return false;
        }
        URI uri;
        try {
            uri = new URI(origin);
        } catch (URISyntaxException e) {
            return false; // "null" (a sandboxed page, a file) and anything else no origin of ours looks like
        }
        if (uri.getScheme() == null || uri.getHost() == null || !uri.getScheme().equalsIgnoreCase(scheme)) {
            return false;
        }
        return hostOf(uri.getHost()).equals(hostOf(authority.host()))
                && portOr(uri.getPort(), scheme) == portOr(authority.port(), scheme);
    }

    private static String hostOf(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return bare.toLowerCase(Locale.ROOT);
    }

    private static int portOr(int port, String scheme) {
        if (port > 0) {
            return port;
        }
        return scheme.equalsIgnoreCase("https") ? 443 : 80;
    }
}
