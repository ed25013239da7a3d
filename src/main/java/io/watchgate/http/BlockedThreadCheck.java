package io.watchgate.http;

import io.quarkus.vertx.VertxOptionsCustomizer;
import io.vertx.core.VertxOptions;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.TimeUnit;

/** Sets how often Vert.x's blocked-thread checker looks (Quarkus configures its limits, not its interval). */
@ApplicationScoped
public class BlockedThreadCheck implements VertxOptionsCustomizer {

    private final EventLoopConfig config;

    BlockedThreadCheck(EventLoopConfig config) {
        this.config = config;
    }

    @Override
    public void accept(VertxOptions options) {
        options.setBlockedThreadCheckInterval(config.blockedCheckInterval().toMillis());
        options.setBlockedThreadCheckIntervalUnit(TimeUnit.MILLISECONDS);
    }
}
