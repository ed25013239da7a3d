package io.watchgate.liveview;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import io.watchgate.request.RouteOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The live view: a page at {@code /} that lists and watches any type the server serves, through the API like any
 * other client (its files are in {@code src/main/resources/live-view}). The files hold no data, so they are served
 * to whoever reaches the port, before authentication: the page must load to offer the login. Everything it shows
 * it reads through the API, as the user it signed in as.
 */
@ApplicationScoped
public class LiveViewRoute {

    /** Where the page's files are, on the class path, and under which path they are served. */
    static final String FILES = "live-view";

    /**
     * Scripts, styles and connections from this origin only (no inline script, so an object's text that found its way
     * into the page as markup could run nothing); no frames of it on other sites' pages (clickjacking).
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    void install(@Observes Router router) {
        // no caching by the browser: an upgraded server's page must not run with the scripts of the one before
        StaticHandler files = StaticHandler.create(FILES).setIndexPage("index.html").setCachingEnabled(false)
                .setDirectoryListing(false).setIncludeHidden(false).setDefaultContentEncoding("UTF-8");
        for (String path : new String[] {"/", "/" + FILES + "/*"}) {
            router.route(path).method(HttpMethod.GET).method(HttpMethod.HEAD).order(RouteOrder.LIVE_VIEW.order())
                    .handler(LiveViewRoute::protect).handler(files);
        }
    }

    private static void protect(RoutingContext context) {
        context.response().headers()
                .set("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .set("X-Content-Type-Options", "nosniff")
                .set("X-Frame-Options", "DENY")
                .set("Referrer-Policy", "no-referrer")
                .set(HttpHeaders.CACHE_CONTROL, "no-cache");
        context.next();
    }
}
