package io.watchgate.authn.session;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.watchgate.authn.UserInfo;
import io.watchgate.status.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The browser sessions the server holds, in memory (a restart logs every browser out), bounded in all and per user.
 * A session is found by the SHA-256 of its cookie value, so that nothing kept here, in a heap dump say, is a
 * credential. Lookups take no lock; logins, renewals and logouts take this store's.
 */
@ApplicationScoped
public class BrowserSessions {

    /** 32 random bytes, base64url without padding: the only shape a cookie value of ours has. */
    static final int VALUE_LENGTH = 43;
    private static final long SWEEP_MILLIS = 5_000;

    private final SessionConfig config;
    private final Clock clock;
    private final Vertx vertx;
    private final Consumer<SessionsEnded> ended;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, BrowserSession> byKey = new ConcurrentHashMap<>();
    private final Map<String, ArrayDeque<BrowserSession>> byUser = new HashMap<>();
    private long sweeper = -1;

    /** A session and the cookie value that stands for it now: handed to the browser once, kept nowhere. */
    public record Issued(String value, BrowserSession session) {
    }

    @Inject
    BrowserSessions(SessionConfig config, Clock clock, Vertx vertx, Event<SessionsEnded> ended) {
        this(config, clock, vertx, (Consumer<SessionsEnded>) ended::fire);
    }

    BrowserSessions(SessionConfig config, Clock clock, Vertx vertx, Consumer<SessionsEnded> ended) {
        if (config.maxSessions() < 1 || config.maxSessionsPerUser() < 1) {
            throw new IllegalStateException("watchgate.session.max-sessions and max-sessions-per-user must be at "
                    + "least 1");
        }
        this.config = config;
        this.clock = clock;
        this.vertx = vertx;
        this.ended = ended;
    }

    void start(@Observes StartupEvent event) {
        sweeper = vertx.setPeriodic(SWEEP_MILLIS, id -> sweep());
    }

    void stop(@Observes ShutdownEvent event) {
        if (sweeper >= 0) {
            vertx.cancelTimer(sweeper);
        }
    }

    /** A new session for {@code user}; past the user's share its oldest session ends, past the server's it is 429. */
    public Issued open(UserInfo user) {
        Instant now = clock.instant();
        int endedNow = 0;
        Issued issued;
        synchronized (this) {
            if (byKey.size() >= config.maxSessions()) {
                endedNow += removeExpired(now);
            }
            if (byKey.size() >= config.maxSessions()) {
                throw new ApiException(429, "TooManyRequests", "the server holds as many browser sessions as it "
                        + "may (" + config.maxSessions() + "); log in again later", ApiException.Details.NONE, 60,
                        null);
            }
            ArrayDeque<BrowserSession> mine = byUser.computeIfAbsent(user.name(), name -> new ArrayDeque<>());
            while (mine.size() >= config.maxSessionsPerUser()) {
                remove(mine.peekFirst());
                endedNow++;
            }
            String value = newValue();
            BrowserSession session = new BrowserSession(user, keyOf(value), now.plus(config.lifetime()),
                    now.plus(config.maxLifetime()));
            byKey.put(session.key, session);
            byUser.computeIfAbsent(user.name(), name -> new ArrayDeque<>()).addLast(session);
            issued = new Issued(value, session);
        }
        announce(endedNow);
        return issued;
    }

    /** The active session a cookie value stands for, if any. */
    public Optional<BrowserSession> find(String value) {
        if (value.length() != VALUE_LENGTH) {
            return Optional.empty(); // not one of ours: no digest for it
        }
        BrowserSession session = byKey.get(keyOf(value));
        return session != null && session.active(clock.instant()) ? Optional.of(session) : Optional.empty();
    }

    /** A new cookie value for {@code session}, the old one no longer valid, and a later end (up to its maximum). */
    public synchronized Optional<Issued> renew(BrowserSession session) {
        Instant now = clock.instant();
        if (!session.active(now) || byKey.get(session.key) != session) {
            return Optional.empty();
        }
        byKey.remove(session.key);
        String value = newValue();
        session.key = keyOf(value);
        session.extend(now.plus(config.lifetime()));
        byKey.put(session.key, session);
        return Optional.of(new Issued(value, session));
    }

    /** Logout: the session stands for no one from now on, and the watches started under it end. */
    public void revoke(BrowserSession session) {
        boolean removed;
        synchronized (this) {
            removed = byKey.get(session.key) == session;
            if (removed) {
                remove(session);
            }
        }
        announce(removed ? 1 : 0);
    }

    /** How many sessions the server holds (expired ones not yet swept included). */
    public int size() {
        return byKey.size();
    }

    void sweep() {
        int removed;
        synchronized (this) {
            removed = removeExpired(clock.instant());
        }
        announce(removed);
    }

    private int removeExpired(Instant now) {
        int removed = 0;
        for (Iterator<BrowserSession> all = byKey.values().iterator(); all.hasNext();) {
            BrowserSession session = all.next();
            if (!session.active(now)) {
                all.remove();
                forget(session);
                removed++;
            }
        }
        return removed;
    }

    private void remove(BrowserSession session) {
        byKey.remove(session.key);
        forget(session);
    }

    private void forget(BrowserSession session) {
        session.revoke();
        ArrayDeque<BrowserSession> mine = byUser.get(session.user().name());
        if (mine != null && mine.remove(session) && mine.isEmpty()) {
            byUser.remove(session.user().name());
        }
    }

    private void announce(int count) {
        if (count > 0) {
            ended.accept(new SessionsEnded(count));
        }
    }

    private String newValue() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String keyOf(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
