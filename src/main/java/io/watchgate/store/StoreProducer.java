package io.watchgate.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** Wires the embedded in-memory store. */
@ApplicationScoped
public class StoreProducer {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    MemoryStore memoryStore(ObjectMapper mapper, HistoryConfig config, Clock clock) {
        return new MemoryStore(mapper, config.maxRevisions(), config.maxBytes(), clock);
    }
}
