package io.watchgate.liveview;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.request.RouteOrder;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live view: a page at {@code /} that lists and watches any type the server serves, through the API like any
 * other client (its files are in {@code src/main/resources/live-view}). The files hold no data, so they are served
 * to whoever reaches the port, before authentication: the page must load to offer the login. Everything it shows
 * it reads through the API, as the user it signed in as.
 *
 * <p>The files are read from the class path once, at start, and only the ones named here are served. Vert.x's
 * StaticHandler would look in the working directory first, where any {@code live-view/} directory would replace the
 * page, unauthenticated.
 */
@ApplicationScoped
public class LiveViewRoute {

    /** Where the page's files are, on the class path, and the path they are served under. */
    static final String FILES = "live-view";

    /** Every file of the page (LiveViewRouteTest checks that this is the directory's content). */
    static final List<String> NAMES = List.of("index.html", "live-view.css", "main.js", "api.js", "views.js",
            "stream.js", "collection.js", "refusals.js", "pane.js", "table.js", "details.js", "activity.js");

    /**
     * Scripts, styles and connections from this origin only (no inline script, so an object's text that found its way
     * into the page as markup could run nothing); no frames of it on other sites' pages (clickjacking).
     */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private record File(Buffer bytes, String contentType, String etag) {
    }

    private final Map<String, File> files = load();

    void install(@Observes Router router) {
        for (String path : new String[] {"/", "/" + FILES + "/:name"}) {
            router.route(path).method(HttpMethod.GET).method(HttpMethod.HEAD).order(RouteOrder.LIVE_VIEW.order())
                    .handler(this::serve);
        }
    }

    private void serve(RoutingContext context) {
        String name = context.pathParam("name");
        File file = files.get(name == null ? "index.html" : name);
        if (file == null) {
            context.next(); // the API's 404 (or 401, before a credential), as for any other path
            return;
        }
        HttpServerResponse response = context.response();
        response.headers()
                .set("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .set("X-Content-Type-Options", "nosniff")
                .set("X-Frame-Options", "DENY")
                .set("Referrer-Policy", "no-referrer")
                // kept, but asked about each time: an upgraded server's page must not run the scripts of the last
                .set(HttpHeaders.CACHE_CONTROL, "no-cache")
                .set(HttpHeaders.ETAG, file.etag());
        if (file.etag().equals(context.request().getHeader(HttpHeaders.IF_NONE_MATCH))) {
            response.setStatusCode(304).end();
            return;
        }
        response.putHeader(HttpHeaders.CONTENT_TYPE, file.contentType());
        if (context.request().method() == HttpMethod.HEAD) {
            response.putHeader(HttpHeaders.CONTENT_LENGTH, Integer.toString(file.bytes().length())).end();
        } else {
            response.end(file.bytes());
        }
    }

    private static Map<String, File> load() {
        Map<String, File> files = new HashMap<>();
        for (String name : NAMES) {
            try (InputStream in = LiveViewRoute.class.getClassLoader().getResourceAsStream(FILES + "/" + name)) {
                if (in == null) {
                    throw new IllegalStateException("the live view's " + name + " is not on the class path");
                }
                byte[] bytes = in.readAllBytes();
                files.put(name, new File(Buffer.buffer(bytes), contentType(name), etag(bytes)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Map.copyOf(files);
    }

    private static String contentType(String name) {
        String extension = name.substring(name.lastIndexOf('.') + 1);
        return switch (extension) {
            case "html" -> "text/html; charset=utf-8";
            case "js" -> "text/javascript; charset=utf-8";
            case "css" -> "text/css; charset=utf-8";
            default -> throw new IllegalStateException("no content type for the live view's " + name);
        };
    }

    private static String etag(byte[] bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 22) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JVM has SHA-256
        }
    }
}
