package io.watchgate.authn.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.watchgate.authn.UserInfo;
import io.watchgate.status.ApiException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Browser sessions: short-lived and renewable up to a maximum lifetime, revocable, bounded in all and per user. */
class BrowserSessionsTest {

    private static final UserInfo ALICE = UserInfo.authenticated("alice", "", List.of("devs"));
    private static final UserInfo BOB = UserInfo.authenticated("bob", "", List.of());

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-02T08:00:00Z"));
    private final List<SessionsEnded> ended = new ArrayList<>();
    private final BrowserSessions sessions = new BrowserSessions(config(3, 2), new MovableClock(now), null,
            ended::add);

    @Test
    void aCookieValueFindsItsSessionUntilItExpires() {
        BrowserSessions.Issued issued = sessions.open(ALICE, Optional.empty());
        assertEquals(43, issued.value().length());
        assertEquals(ALICE, sessions.find(issued.value()).orElseThrow().user());
        pass(Duration.ofMinutes(14));
        assertTrue(sessions.find(issued.value()).isPresent());
        pass(Duration.ofMinutes(1));
        assertTrue(sessions.find(issued.value()).isEmpty(), "15 minutes without renewal end it");
        sessions.sweep();
        assertEquals(0, sessions.size());
        assertEquals(List.of(new SessionsEnded(1)), ended, "its watches are told");
    }

    @Test
    void valuesNotIssuedFindNothing() {
        String issued = sessions.open(ALICE, Optional.empty()).value();
        assertTrue(sessions.find("").isEmpty());
        assertTrue(sessions.find(issued + "x").isEmpty());
        assertTrue(sessions.find(issued.substring(1) + (issued.charAt(0) == 'A' ? 'B' : 'A')).isEmpty());
        assertTrue(sessions.find("x".repeat(10_000)).isEmpty());
    }

    @Test
    void renewalIssuesANewValueAndALaterEndButNeverPastTheMaximumLifetime() {
        BrowserSessions.Issued first = sessions.open(ALICE, Optional.empty());
        pass(Duration.ofMinutes(10));
        BrowserSessions.Issued second = sessions.renew(first.session(), first.value()).orElseThrow();
        assertNotEquals(first.value(), second.value());
        assertEquals(now.get().plus(Duration.ofMinutes(15)), second.session().expires());
        assertEquals(1, sessions.size(), "one session, whatever values stand for it");
        assertTrue(sessions.find(first.value()).isPresent(), "requests sent before the renewal's answer still count");
        pass(Duration.ofSeconds(10));
        assertTrue(sessions.find(first.value()).isEmpty(), "then the old value stands for nothing");
        BrowserSessions.Issued current = second;
        for (int i = 0; i < 60 && current.session().active(now.get()); i++) {
            pass(Duration.ofMinutes(14));
            current = sessions.renew(current.session(), current.value()).orElse(current);
        }
        assertEquals(Instant.parse("2026-12-02T20:00:00Z"), current.session().expires(), "12 h after login");
        assertTrue(sessions.renew(current.session(), current.value()).isEmpty());
    }

    @Test
    void ofTwoRenewalsWithTheSameValueTheFirstWinsAndTheSecondIssuesNothing() {
        BrowserSessions.Issued issued = sessions.open(ALICE, Optional.empty());
        BrowserSessions.Issued renewed = sessions.renew(issued.session(), issued.value()).orElseThrow();
        assertTrue(sessions.renew(issued.session(), issued.value()).isEmpty());
        assertTrue(sessions.find(renewed.value()).isPresent());
    }

    @Test
    void aSessionEndsNoLaterThanTheCredentialItWasOpenedWith() {
        Instant tokenExpiry = now.get().plus(Duration.ofMinutes(5));
        BrowserSessions.Issued issued = sessions.open(ALICE, Optional.of(tokenExpiry));
        assertEquals(tokenExpiry, issued.session().expires());
        pass(Duration.ofMinutes(4));
        BrowserSessions.Issued renewed = sessions.renew(issued.session(), issued.value()).orElseThrow();
        assertEquals(tokenExpiry, renewed.session().expires(), "renewal does not outlast the token");
        pass(Duration.ofMinutes(1));
        assertTrue(sessions.find(renewed.value()).isEmpty());
    }

    @Test
    void logoutEndsTheSessionAndTellsItsWatches() {
        BrowserSessions.Issued issued = sessions.open(ALICE, Optional.empty());
        sessions.revoke(issued.session());
        assertTrue(sessions.find(issued.value()).isEmpty());
        assertFalse(issued.session().active(now.get()));
        assertTrue(sessions.renew(issued.session(), issued.value()).isEmpty(), "a session logged out is not renewed");
        sessions.revoke(sessions.open(BOB, Optional.empty()).session());
        assertEquals(List.of(), ended, "the watches are told at the next sweep, once for all");
        sessions.sweep();
        assertEquals(List.of(new SessionsEnded(2)), ended);
    }

    @Test
    void aUserPastItsShareLosesItsOldestSession() {
        BrowserSessions.Issued oldest = sessions.open(ALICE, Optional.empty());
        BrowserSessions.Issued next = sessions.open(ALICE, Optional.empty());
        BrowserSessions.Issued newest = sessions.open(ALICE, Optional.empty());
        assertTrue(sessions.find(oldest.value()).isEmpty());
        assertTrue(sessions.find(next.value()).isPresent());
        assertTrue(sessions.find(newest.value()).isPresent());
        assertEquals(2, sessions.size());
    }

    @Test
    void aFullServerRefusesLoginsUntilSessionsEnd() {
        sessions.open(ALICE, Optional.empty());
        sessions.open(ALICE, Optional.empty());
        BrowserSessions.Issued bobs = sessions.open(BOB, Optional.empty());
        UserInfo carol = UserInfo.authenticated("carol", "", List.of());
        ApiException full = assertThrows(ApiException.class, () -> sessions.open(carol, Optional.empty()));
        assertEquals(429, full.code());
        sessions.revoke(bobs.session());
        assertTrue(sessions.find(sessions.open(carol, Optional.empty()).value()).isPresent());
        pass(Duration.ofMinutes(15));
        assertTrue(sessions.find(sessions.open(BOB, Optional.empty()).value()).isPresent(),
                "expired sessions make room");
    }

    private void pass(Duration duration) {
        now.set(now.get().plus(duration));
    }

    private static SessionConfig config(int max, int perUser) {
        return new SessionConfig() {
            @Override
            public Duration lifetime() {
                return Duration.ofMinutes(15);
            }

            @Override
            public Duration maxLifetime() {
                return Duration.ofHours(12);
            }

            @Override
            public int maxSessions() {
                return max;
            }

            @Override
            public int maxSessionsPerUser() {
                return perUser;
            }
        };
    }

    private static final class MovableClock extends Clock {
        private final AtomicReference<Instant> now;

        MovableClock(AtomicReference<Instant> now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
