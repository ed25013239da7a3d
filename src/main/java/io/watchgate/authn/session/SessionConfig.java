package io.watchgate.authn.session;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Browser sessions: what a login exchange ({@code POST /watchgate/session}) gives a browser, and their bounds. */
@ConfigMapping(prefix = "watchgate.session")
public interface SessionConfig {

    /** How long a session lasts unless renewed; each renewal gives it this long again, up to the maximum lifetime. */
    @WithDefault("15m")
    Duration lifetime();

    /** How long after its login a session ends however often it was renewed: then the browser logs in again. */
    @WithDefault("12h")
    Duration maxLifetime();

    /** Sessions the server holds at most (at least 1); a login past it is 429 until some end. */
    @WithDefault("10000")
    int maxSessions();

    /** Sessions one user holds at most (at least 1); a login past it ends that user's oldest. */
    @WithDefault("10")
    int maxSessionsPerUser();
}
