package io.watchgate.authn;

import io.quarkus.arc.All;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authn.session.SessionCredentials;
import io.watchgate.metrics.Refusals;
import io.watchgate.request.RouteOrder;
import io.watchgate.status.ApiException;
import io.watchgate.status.StatusResponses;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Establishes who sends each request on the API port, as kube-apiserver's authentication filter does: a verified
 * client certificate names the user first ({@link ClientCertificates}); else a bearer token goes through the
 * {@link TokenAuthenticator}s in turn and the first that recognizes it names the user; else a browser's session
 * cookie names its session's user ({@link SessionCredentials}, which refuses a page the server does not trust with
 * 403). A token or cookie none recognizes is 401. A request without any is {@code system:anonymous} where anonymous
 * requests are on ({@code watchgate.auth.anonymous}), else 401. The 401 says nothing but "Unauthorized": not which
 * part failed, and nothing about any object.
 */
@ApplicationScoped
public class RequestAuthentication {

    /** The authenticator that recognized the request's credential (for {@link #credentialExpiry}). */
    private static final String SOURCE_KEY = RequestAuthentication.class.getName() + ".source";

    private final ClientCertificates certificates;
    private final List<TokenAuthenticator> authenticators;
    private final SessionCredentials sessions;
    private final boolean anonymous;
    private final Refusals refusals;

    RequestAuthentication(ClientCertificates certificates, @All List<TokenAuthenticator> authenticators,
            SessionCredentials sessions, AuthConfig config, Refusals refusals) {
        this.certificates = certificates;
        this.authenticators = List.copyOf(authenticators);
        this.sessions = sessions;
        this.anonymous = config.anonymous();
        this.refusals = refusals;
    }

    void install(@Observes Router router) {
        router.route().order(RouteOrder.AUTHENTICATION.order()).handler(this::authenticate);
    }

    private void authenticate(RoutingContext context) {
        Optional<UserInfo> user = certificates.user(context.request());
        if (user.isPresent()) {
            context.put(SOURCE_KEY, certificates);
        }
        boolean byCookie = false;
        if (user.isEmpty()) {
            String token = BearerToken.of(context.request().getHeader(HttpHeaders.AUTHORIZATION));
            if (token != null) {
                user = recognize(token, context);
            } else if (sessions.carried(context.request())) {
                byCookie = true;
                try {
                    user = sessions.authenticate(context);
                } catch (ApiException crossSite) {
                    refusals.count(Refusals.Reason.CROSS_SITE);
                    StatusResponses.end(context.response(), crossSite);
                    return;
                }
            } else if (anonymous) {
                user = Optional.of(UserInfo.anonymous());
            }
        }
        if (user.isEmpty()) {
            if (byCookie) {
                SessionCredentials.clearCookie(context.response()); // its session ended: the browser may forget it
            }
            refusals.count(Refusals.Reason.UNAUTHORIZED);
            StatusResponses.end(context.response(), new ApiException(401, "Unauthorized", "Unauthorized"));
            return;
        }
        Identities.put(context, user.get());
        context.next();
    }

    /**
     * When the credential that authenticated the request stops being valid, where it says: a client certificate's
     * {@code notAfter}, a JWT's {@code exp}. A static token says nothing (it lasts while its file lists it). Read when
     * asked (a login), from the credential authentication took, not at every request.
     */
    public Optional<Instant> credentialExpiry(RoutingContext context) {
        Object source = context.get(SOURCE_KEY);
        if (source == certificates) {
            return certificates.expiry(context.request());
        }
        if (source instanceof TokenAuthenticator authenticator) {
            return authenticator.expiry(BearerToken.of(context.request().getHeader(HttpHeaders.AUTHORIZATION)));
        }
        return Optional.empty();
    }

    /** The user the first authenticator that recognizes the token names; which one, kept with the request if any. */
    private Optional<UserInfo> recognize(String token, RoutingContext context) {
        for (TokenAuthenticator authenticator : authenticators) {
            Optional<UserInfo> user = authenticator.authenticate(token);
            if (user.isPresent()) {
                if (context != null) {
                    context.put(SOURCE_KEY, authenticator);
                }
                return user;
            }
        }
        return Optional.empty();
    }

    /** The user the first authenticator that recognizes the token names. */
    public Optional<UserInfo> recognize(String token) {
        return recognize(token, null);
    }
}
