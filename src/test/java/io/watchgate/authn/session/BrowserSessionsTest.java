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
        BrowserSessions.Issued issued = sessions.open(ALICE);
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
        String issued = sessions.open(ALICE).value();
        assertTrue(sessions.find("").isEmpty());
        assertTrue(sessions.find(issued + "x").isEmpty());
        assertTrue(sessions.find(issued.substring(1) + (issued.charAt(0) == 'A' ? 'B' : 'A')).isEmpty());
        assertTrue(sessions.find("x".repeat(10_000)).isEmpty());
    }

    @Test
    void renewalIssuesANewValueAndALaterEndButNeverPastTheMaximumLifetime() {
        BrowserSessions.Issued first = sessions.open(ALICE);
        pass(Duration.ofMinutes(10));
        BrowserSessions.Issued second = sessions.renew(first.session()).orElseThrow();
        assertNotEquals(first.value(), second.value());
        assertTrue(sessions.find(first.value()).isEmpty(), "the old value stands for nothing");
        assertEquals(now.get().plus(Duration.ofMinutes(15)), second.session().expires());
        for (int i = 0; i < 60; i++) {
            pass(Duration.ofMinutes(14));
            sessions.renew(second.session());
        }
        assertEquals(Instant.parse("2026-12-02T20:00:00Z"), second.session().expires(), "12 h after login");
        pass(Duration.ofHours(1));
        assertTrue(sessions.renew(second.session()).isEmpty());
    }

    @Test
    void logoutEndsTheSessionAndTellsItsWatches() {
        BrowserSessions.Issued issued = sessions.open(ALICE);
        sessions.revoke(issued.session());
        assertTrue(sessions.find(issued.value()).isEmpty());
        assertFalse(issued.session().active(now.get()));
        assertTrue(sessions.renew(issued.session()).isEmpty(), "a session logged out is not renewed");
        assertEquals(List.of(new SessionsEnded(1)), ended);
    }

    @Test
    void aUserPastItsShareLosesItsOldestSession() {
        BrowserSessions.Issued oldest = sessions.open(ALICE);
        BrowserSessions.Issued next = sessions.open(ALICE);
        BrowserSessions.Issued newest = sessions.open(ALICE);
        assertTrue(sessions.find(oldest.value()).isEmpty());
        assertTrue(sessions.find(next.value()).isPresent());
        assertTrue(sessions.find(newest.value()).isPresent());
        assertEquals(2, sessions.size());
    }

    @Test
    void aFullServerRefusesLoginsUntilSessionsEnd() {
        sessions.open(ALICE);
        sessions.open(ALICE);
        BrowserSessions.Issued bobs = sessions.open(BOB);
        UserInfo carol = UserInfo.authenticated("carol", "", List.of());
        ApiException full = assertThrows(ApiException.class, () -> sessions.open(carol));
        assertEquals(429, full.code());
        sessions.revoke(bobs.session());
        assertTrue(sessions.find(sessions.open(carol).value()).isPresent());
        pass(Duration.ofMinutes(15));
        assertTrue(sessions.find(sessions.open(BOB).value()).isPresent(), "expired sessions make room");
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
