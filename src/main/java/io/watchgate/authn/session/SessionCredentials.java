package io.watchgate.authn.session;

import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
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
 * browser's {@code Sec-Fetch-Site} must say the page is the server's own (or that no page asked); a write must carry
 * an Origin (every browser sends one with a write) and no body type a form of any site may send without asking (the
 * Content-Type rule). The cookie itself is {@code SameSite=Strict}, so a browser does not send it from another
 * site's page at all: these checks are the second wall, and the only one against sibling hosts of the same site.
 */
@ApplicationScoped
public class SessionCredentials {

    /** {@code __Host-}: browsers keep it only if it is Secure, for the whole host, and set by the host itself. */
    public static final String COOKIE = "__Host-watchgate-session";
    private static final String KEY = BrowserSession.class.getName();
    private static final String VALUE_KEY = KEY + ".value";
    private static final Set<String> FORM_TYPES = Set.of("application/x-www-form-urlencoded", "multipart/form-data",
            "text/plain");
    private static final Set<String> OWN_PAGE = Set.of("same-origin", "none");
    private static final int HEADER_SHOWN = 256;

    private final BrowserSessions sessions;
    private final TrustedOrigins origins = TrustedOrigins.configured(ConfigProvider.getConfig());

    SessionCredentials(BrowserSessions sessions) {
        this.sessions = sessions;
    }

    /** Whether the request carries a session cookie (good or not). */
    public boolean carried(HttpServerRequest request) {
        return valueOf(request) != null;
    }

    /**
     * The user of the session the request's cookie stands for, kept with the request; empty for a cookie that stands
     * for none (401); an ApiException (403) for a request a page the server does not trust may have sent.
     */
    public Optional<UserInfo> authenticate(RoutingContext context) {
        HttpServerRequest request = context.request();
        refuseUntrustedPage(request);
        if (written(request) && request.getHeader(HttpHeaders.ORIGIN) == null) {
            throw crossSite("a write must say which page sent it (Origin), as browsers do");
        }
        String value = valueOf(request);
        Optional<BrowserSession> session = value == null ? Optional.empty() : sessions.find(value);
        session.ifPresent(found -> {
            context.put(KEY, found);
            context.put(VALUE_KEY, value);
        });
        return session.map(BrowserSession::user);
    }

    /** The session the request was authenticated by, if it was by a session cookie. */
    public static Optional<BrowserSession> of(RoutingContext context) {
        return Optional.ofNullable(context.get(KEY));
    }

    /** The cookie value the request was authenticated by (see {@link #of}). */
    static String presentedValue(RoutingContext context) {
        return context.get(VALUE_KEY);
    }

    /** The active session of the request's cookie, whatever else authenticated the request (for logout). */
    Optional<BrowserSession> carriedSession(HttpServerRequest request) {
        String value = valueOf(request);
        return value == null ? Optional.empty() : sessions.find(value);
    }

    /**
     * 403 for a request a browser sent for a page the server does not trust: another origin, a page of another site,
     * or a form's body type. A request no browser sent (no Origin, no Sec-Fetch-Site) passes.
     */
    void refuseUntrustedPage(HttpServerRequest request) {
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        String site = request.getHeader("Sec-Fetch-Site");
        if (origin != null) {
            if (!origins.allowsWithCredentials(origin, request)) {
                throw crossSite("its Origin \"" + shown(origin) + "\" is neither the server's own nor one "
                        + "quarkus.http.cors.origins lists");
            }
        } else if (site != null && !OWN_PAGE.contains(site.toLowerCase(Locale.ROOT))) {
            throw crossSite("a page of another origin sent it (Sec-Fetch-Site: " + shown(site) + ")");
        }
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        if (written(request) && type != null && FORM_TYPES.contains(mediaType(type))) {
            throw crossSite("its body is of type " + mediaType(type) + ", which a form of any site may send");
        }
    }

    /** The header that sets the cookie to {@code value} for {@code maxAgeSeconds}. */
    static String setCookie(String value, long maxAgeSeconds) {
        return COOKIE + "=" + value + "; Path=/; Max-Age=" + maxAgeSeconds + "; HttpOnly; Secure; SameSite=Strict";
    }

    /** Tells the browser to forget the cookie. */
    public static void clearCookie(HttpServerResponse response) {
        response.putHeader(HttpHeaders.SET_COOKIE, setCookie("", 0));
    }

    /** The cookie's value, from every Cookie header (HTTP/2 clients may send one per cookie). */
    private static String valueOf(HttpServerRequest request) {
        for (String header : request.headers().getAll(HttpHeaders.COOKIE)) {
            for (Cookie cookie : ServerCookieDecoder.STRICT.decode(header)) {
                if (cookie.name().equals(COOKIE)) {
                    return cookie.value();
                }
            }
        }
        return null;
    }

    private static boolean written(HttpServerRequest request) {
        return !(request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD);
    }

    private static ApiException crossSite(String why) {
        return new ApiException(403, "Forbidden", "a request from a browser page the server does not trust was "
                + "refused: " + why);
    }

    private static String mediaType(String contentType) {
        int parameters = contentType.indexOf(';');
        String type = (parameters < 0 ? contentType : contentType.substring(0, parameters)).trim();
        return shown(type).toLowerCase(Locale.ROOT);
    }

    private static String shown(String header) {
        return header.length() <= HEADER_SHOWN ? header : header.substring(0, HEADER_SHOWN) + "...";
    }
}
