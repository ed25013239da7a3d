package io.watchgate.authn.session;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authn.UserInfo;
import io.watchgate.http.TrustedOrigins;
import io.watchgate.status.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The session cookie as a credential. A browser sends it of its own accord, whichever page asks, so before it names
 * anyone the request must show it comes from a page the server trusts (CSRF, and WebSocket hijacking): an
 * {@code Origin}, when sent, must be the server's own or one CORS lists ({@link TrustedOrigins}); without one, a
 * browser's {@code Sec-Fetch-Site} must not say {@code cross-site}; a write must carry an Origin (every browser
 * sends one with a write) and no body type a form of any site may send without asking (the Content-Type rule).
 * The cookie itself is {@code SameSite=Strict}, so a browser does not send it from another site's page at all: these
 * checks are the second wall, and the only one against sibling hosts of the same site.
 */
@ApplicationScoped
public class SessionCredentials {

    /** {@code __Host-}: browsers keep it only if it is Secure, for the whole host, and set by the host itself. */
    public static final String COOKIE = "__Host-watchgate-session";
    private static final String KEY = BrowserSession.class.getName();
    private static final Set<String> FORM_TYPES = Set.of("application/x-www-form-urlencoded", "multipart/form-data",
            "text/plain");
    private static final int ORIGIN_SHOWN = 256;

    private final BrowserSessions sessions;
    private final TrustedOrigins origins = TrustedOrigins.configured(ConfigProvider.getConfig());

    SessionCredentials(BrowserSessions sessions) {
        this.sessions = sessions;
    }

    /** Whether the request carries a session cookie (good or not). */
    public boolean carried(HttpServerRequest request) {
        return request.getCookie(COOKIE) != null;
    }

    /**
     * The user of the session the request's cookie stands for, kept with the request; empty for a cookie that stands
     * for none (401); an ApiException (403) for a request a page the server does not trust may have sent.
     */
    public Optional<UserInfo> authenticate(RoutingContext context) {
        HttpServerRequest request = context.request();
        refuseCrossSite(request);
        Cookie cookie = request.getCookie(COOKIE);
        Optional<BrowserSession> session = cookie == null ? Optional.empty() : sessions.find(cookie.getValue());
        session.ifPresent(found -> context.put(KEY, found));
        return session.map(BrowserSession::user);
    }

    /** The session the request was authenticated by, if it was by a session cookie. */
    public static Optional<BrowserSession> of(RoutingContext context) {
        return Optional.ofNullable(context.get(KEY));
    }

    private void refuseCrossSite(HttpServerRequest request) {
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        boolean write = !(request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD);
        if (origin != null) {
            if (!origins.allowsWithCredentials(origin, request)) {
                throw crossSite("its Origin \"" + shown(origin) + "\" is neither the server's own nor one "
                        + "quarkus.http.cors.origins lists");
            }
        } else if ("cross-site".equalsIgnoreCase(request.getHeader("Sec-Fetch-Site"))) {
            throw crossSite("a page of another site sent it (Sec-Fetch-Site: cross-site)");
        } else if (write) {
            throw crossSite("a write must say which page sent it (Origin), as browsers do");
        }
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        if (write && type != null && FORM_TYPES.contains(mediaType(type))) {
            throw crossSite("its body is of type " + mediaType(type) + ", which a form of any site may send");
        }
    }

    private static ApiException crossSite(String why) {
        return new ApiException(403, "Forbidden", "a request authenticated by a session cookie was refused: " + why);
    }

    private static String mediaType(String contentType) {
        int parameters = contentType.indexOf(';');
        String type = (parameters < 0 ? contentType : contentType.substring(0, parameters)).trim();
        return shown(type).toLowerCase(Locale.ROOT);
    }

    private static String shown(String header) {
        return header.length() <= ORIGIN_SHOWN ? header : header.substring(0, ORIGIN_SHOWN) + "...";
    }
}
