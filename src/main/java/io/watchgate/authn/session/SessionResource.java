package io.watchgate.authn.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.common.annotation.NonBlocking;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.watchgate.authn.BearerToken;
import io.watchgate.authn.Identities;
import io.watchgate.authn.RequestAuthentication;
import io.watchgate.authn.UserInfo;
import io.watchgate.metrics.Refusals;
import io.watchgate.status.ApiException;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The browser login exchange. {@code POST} with a credential a browser cannot send by itself on every request (a
 * bearer token, an OIDC JWT, a client certificate) opens a session and sets its cookie ({@code HttpOnly}: no script
 * reads it; {@code Secure}; {@code SameSite=Strict}); {@code POST} with the cookie alone renews it (a new value, a
 * later end); {@code GET} says whose it is and until when; {@code DELETE} logs out. RBAC lets every authenticated
 * user do all three ({@code system:basic-user}).
 */
@Path("/watchgate/session")
@NonBlocking
public class SessionResource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final BrowserSessions sessions;
    private final SessionCredentials credentials;
    private final RequestAuthentication authentication;
    private final Refusals refusals;
    private final Clock clock;

    SessionResource(BrowserSessions sessions, SessionCredentials credentials, RequestAuthentication authentication,
            Refusals refusals, Clock clock) {
        this.sessions = sessions;
        this.credentials = credentials;
        this.authentication = authentication;
        this.refusals = refusals;
        this.clock = clock;
    }

    @POST
    public Response login(@Context RoutingContext context) {
        if (BearerToken.of(context.request().getHeader(HttpHeaders.AUTHORIZATION)) == null) {
            // a client certificate (or the cookie) a browser sends of its own accord: from a page of ours only
            try {
                credentials.refuseUntrustedPage(context.request());
            } catch (ApiException crossSite) {
                refusals.count(Refusals.Reason.CROSS_SITE);
                throw crossSite;
            }
        }
        UserInfo user = Identities.authenticated(context);
        if (user.name().equals(UserInfo.ANONYMOUS)) {
            throw new ApiException(401, "Unauthorized", "a session is opened with a credential: a bearer token or a"
                    + " client certificate");
        }
        if (!Identities.of(context).equals(user)) {
            throw ApiException.badRequest("a session is opened for the user who logs in, not one impersonated");
        }
        Optional<BrowserSession> current = SessionCredentials.of(context);
        if (current.isPresent()) {
            Optional<BrowserSessions.Issued> renewed = sessions.renew(current.get(),
                    SessionCredentials.presentedValue(context));
            // none: another renewal (another tab) replaced the value first, and the browser keeps that one
            return renewed.map(issued -> answer(Response.ok(), issued))
                    .orElseGet(() -> json(Response.ok(), current.get()).build());
        }
        return answer(Response.status(Response.Status.CREATED),
                sessions.open(user, authentication.credentialExpiry(context)));
    }

    @GET
    public Response describe(@Context RoutingContext context) {
        BrowserSession session = SessionCredentials.of(context).orElseThrow(() -> new ApiException(404, "NotFound",
                "no session: the request was not authenticated by a session cookie"));
        return json(Response.ok(), session).build();
    }

    @DELETE
    public Response logout(@Context RoutingContext context) {
        // the cookie's session, even where another credential (a client certificate) authenticated the request
        SessionCredentials.of(context).or(() -> credentials.carriedSession(context.request()))
                .ifPresent(sessions::revoke);
        String status = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\","
                + "\"code\":200}";
        return Response.ok(status, MediaType.APPLICATION_JSON_TYPE)
                .header("Set-Cookie", SessionCredentials.setCookie("", 0))
                .header("Cache-Control", "no-store")
                .build();
    }

    private Response answer(Response.ResponseBuilder response, BrowserSessions.Issued issued) {
        long seconds = Math.max(0, Duration.between(clock.instant(), issued.session().expires()).toSeconds());
        return json(response, issued.session())
                .header("Set-Cookie", SessionCredentials.setCookie(issued.value(), seconds)).build();
    }

    private static Response.ResponseBuilder json(Response.ResponseBuilder response, BrowserSession session) {
        ObjectNode body = JSON.createObjectNode().put("kind", "BrowserSession").put("apiVersion", "watchgate.io/v1");
        ObjectNode status = body.putObject("status");
        ObjectNode userInfo = status.putObject("userInfo").put("username", session.user().name());
        if (!session.user().uid().isEmpty()) {
            userInfo.put("uid", session.user().uid());
        }
        session.user().groups().forEach(userInfo.withArray("/groups")::add);
        status.put("expirationTimestamp", timestamp(session.expires()));
        status.put("maxExpirationTimestamp", timestamp(session.endOfLife()));
        return response.entity(body.toString()).type(MediaType.APPLICATION_JSON_TYPE).header("Cache-Control",
                "no-store");
    }

    private static String timestamp(Instant instant) {
        return instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
