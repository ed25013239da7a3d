package io.watchgate.authn.session;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.watchgate.authn.CredentialDigest;
import io.watchgate.authn.UserInfo;
import io.watchgate.status.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
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
    /**
     * How often ended sessions are dropped and their watches told: watches end within this of a logout, and however
     * fast sessions end (a user logging in and out in a loop), open watches are asked again at most this often.
     */
    private static final long SWEEP_MILLIS = 2_000;
    /** How long the value before a renewal still counts: requests sent with it before the renewal's answer came. */
    private static final java.time.Duration RENEWAL_GRACE = java.time.Duration.ofSeconds(10);

    private final SessionConfig config;
    private final Clock clock;
    private final Vertx vertx;
    private final Consumer<SessionsEnded> ended;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, BrowserSession> byKey = new ConcurrentHashMap<>();
    private final Map<String, ArrayDeque<BrowserSession>> byUser = new HashMap<>();
    /** Sessions held (byKey also holds values in their renewal's grace; guarded by this). */
    private int count;
    /** Sessions ended since the last sweep told the watches (guarded by this). */
    private int endedSinceSweep;
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

    /**
     * A new session for {@code user}, ending no later than the credential it was opened with ({@code credentialEnd});
     * past the user's share its oldest session ends, past the server's it is 429.
     */
    public Issued open(UserInfo user, Optional<Instant> credentialEnd) {
        Instant now = clock.instant();
        int endedNow = 0;
        Issued issued;
        synchronized (this) {
            ArrayDeque<BrowserSession> mine = byUser.get(user.name());
            while (mine != null && !mine.isEmpty() && mine.size() >= config.maxSessionsPerUser()) {
                remove(mine.peekFirst());
                endedNow++;
            }
            if (count >= config.maxSessions()) {
                endedNow += removeExpired(now);
            }
            if (count >= config.maxSessions()) {
                endedSinceSweep += endedNow;
                throw new ApiException(429, "TooManyRequests", "the server holds as many browser sessions as it "
                        + "may (" + config.maxSessions() + "); log in again later", ApiException.Details.NONE, 60,
                        null);
            }
            String value = newValue();
            Instant endOfLife = now.plus(config.maxLifetime());
            if (credentialEnd.isPresent() && credentialEnd.get().isBefore(endOfLife)) {
                endOfLife = credentialEnd.get();
            }
            BrowserSession session = new BrowserSession(user, CredentialDigest.of(value), now.plus(config.lifetime()),
                    endOfLife);
            byKey.put(session.key, session);
            count++;
            byUser.computeIfAbsent(user.name(), name -> new ArrayDeque<>()).addLast(session);
            issued = new Issued(value, session);
            endedSinceSweep += endedNow;
        }
        return issued;
    }

    /** The active session a cookie value stands for, if any. */
    public Optional<BrowserSession> find(String value) {
        if (value.length() != VALUE_LENGTH) {
            return Optional.empty(); // not one of ours: no digest for it
        }
        String key = CredentialDigest.of(value);
        BrowserSession session = byKey.get(key);
        Instant now = clock.instant();
        return session != null && session.active(now) && session.answersTo(key, now) ? Optional.of(session)
                : Optional.empty();
    }

    /**
     * A new cookie value for the session {@code presented} stands for, and a later end (up to its maximum); the
     * presented value still counts for a few seconds, for requests already sent with it. Empty when {@code presented}
     * is no longer the value in force: a concurrent renewal (another tab) got there first, and its value stands.
     */
    public synchronized Optional<Issued> renew(BrowserSession session, String presented) {
        Instant now = clock.instant();
        String presentedKey = CredentialDigest.of(presented);
        if (!session.active(now) || !presentedKey.equals(session.key) || byKey.get(presentedKey) != session) {
            return Optional.empty();
        }
        if (session.previousKey != null) {
            byKey.remove(session.previousKey);
        }
        session.previousKey = session.key;
        session.previousUntil = now.plus(RENEWAL_GRACE);
        String value = newValue();
        session.key = CredentialDigest.of(value);
        session.extend(now.plus(config.lifetime()));
        byKey.put(session.key, session);
        return Optional.of(new Issued(value, session));
    }

    /** Logout: the session stands for no one from now on, and the watches started under it end. */
    public synchronized void revoke(BrowserSession session) {
        if (byKey.get(session.key) == session) {
            remove(session);
            endedSinceSweep++;
        }
    }

    /** How many sessions the server holds (expired ones not yet swept included). */
    public synchronized int size() {
        return count;
    }

    /** Drops ended sessions, and tells the watches of those ended since the last sweep, once for all. */
    void sweep() {
        int ended;
        synchronized (this) {
            ended = removeExpired(clock.instant()) + endedSinceSweep;
            endedSinceSweep = 0;
        }
        if (ended > 0) {
            this.ended.accept(new SessionsEnded(ended));
        }
    }

    /** Drops ended sessions, and values past their renewal's grace; counts the sessions. */
    private int removeExpired(Instant now) {
        int removed = 0;
        for (Iterator<Map.Entry<String, BrowserSession>> all = byKey.entrySet().iterator(); all.hasNext();) {
            Map.Entry<String, BrowserSession> entry = all.next();
            BrowserSession session = entry.getValue();
            if (!session.active(now)) {
                all.remove();
                if (entry.getKey().equals(session.key)) {
                    forget(session);
                    removed++;
                }
            } else if (!session.answersTo(entry.getKey(), now)) {
                all.remove(); // a value renewed away, past its grace
            }
        }
        return removed;
    }

    private void remove(BrowserSession session) {
        byKey.remove(session.key);
        if (session.previousKey != null) {
            byKey.remove(session.previousKey);
        }
        forget(session);
    }

    private void forget(BrowserSession session) {
        count--;
        session.revoke();
        ArrayDeque<BrowserSession> mine = byUser.get(session.user().name());
        if (mine != null && mine.remove(session) && mine.isEmpty()) {
            byUser.remove(session.user().name());
        }
    }

    private String newValue() {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
