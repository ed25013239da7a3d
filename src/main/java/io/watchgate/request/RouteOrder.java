package io.watchgate.request;

/**
 * Where each of watchgate's own Vert.x routes sits in the router, in one place because their order is the point:
 * a route that refuses a request must come after those that have to see the refusal. Vert.x runs routes by
 * ascending order, and those of one order as they were added; Quarkus' own first handlers take
 * {@code Integer.MIN_VALUE} and {@code MIN_VALUE + 1} too (its RouteConstants: access log, body handler), and
 * RESTEasy, which serves the rest of the API, comes after all of these.
 */
public enum RouteOrder {

    /**
     * Tells the connection's deadline that a request head arrived (and when its response ends), before anything can
     * answer the request. It answers nothing, so its order among the first routes does not matter.
     */
    CONNECTION_DEADLINE(Integer.MIN_VALUE),
    /**
     * Tags the request metrics of every API request with its path template, first, so that the refusals of the
     * routes after it are tagged too. It and {@link #WRITE_COUNTING} answer nothing, so their order between them
     * does not matter.
     */
    PATH_TEMPLATE(Integer.MIN_VALUE),
    /** Counts writes as they end: before every route that may refuse one, the body limit included. */
    WRITE_COUNTING(Integer.MIN_VALUE),
    /** Writes each request's audit event as its response ends: before every route that may refuse it. */
    AUDIT(Integer.MIN_VALUE),
    /**
     * Has the answer to a watch over HTTP/1.x close its connection, whichever route gives it: before every route that
     * may refuse one. It answers nothing.
     */
    WATCH_CONNECTION(Integer.MIN_VALUE),
    /** Refuses requests naming a host the API is not served under (DNS rebinding), before anything else does. */
    ALLOWED_HOSTS(Integer.MIN_VALUE + 1),
    /** Refuses bodies that announce a length over the limit, before anything reads them. */
    BODY_LIMIT(Integer.MIN_VALUE + 1),
    /** Refuses OPTIONS, as kube-apiserver does, before RESTEasy would answer it. */
    OPTIONS(Integer.MIN_VALUE + 2),
    /**
     * Serves the live view's files (GET and HEAD only, so never what OPTIONS refuses): before authentication, since
     * they hold no data and the page must load to offer the login; after the host check, against DNS rebinding.
     */
    LIVE_VIEW(Integer.MIN_VALUE + 2),
    /**
     * Establishes who sends the request, or refuses it with 401: before the places in flight, so that a client
     * without credentials takes none (kube-apiserver authenticates before its in-flight limits too).
     */
    AUTHENTICATION(Integer.MIN_VALUE + 3),
    /** Lets an authenticated user act as another ({@code Impersonate-User}) where allowed to, or refuses (403). */
    IMPERSONATION(Integer.MIN_VALUE + 4),
    /**
     * Refuses with 429 a user past its own share (requests in flight, watches, writes per second): once the user is
     * known, before the server-wide places in flight, so that a user over its share takes none of them.
     */
    USER_LIMITS(Integer.MIN_VALUE + 5),
    /**
     * Takes one of the places for requests in flight, or refuses the request with 429: after the refusals that cost
     * nothing (so they take no place), before anything reads a body or serves the request.
     */
    IN_FLIGHT(Integer.MIN_VALUE + 6),
    /**
     * Decides whether the user may do what the request asks, or refuses it with 403: after the in-flight limit (as
     * kube-apiserver), before anything reads a body or serves the request, watches included.
     */
    AUTHORIZATION(Integer.MIN_VALUE + 7),
    /** Serves watches, after Quarkus' own handlers (CORS among them) and before RESTEasy, which serves the rest. */
    WATCH(9_000);

    private final int order;

    RouteOrder(int order) {
        this.order = order;
    }

    /** The order to give the route ({@code router.route().order(...)}). */
    public int order() {
        return order;
    }
}
