package io.watchgate.watch;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.store.ChangeEvent;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The encoded form of recent events, so that an event is framed once whether watchers get it live or while
 * catching up from history. Keeps the last {@value #RECENT} revisions; older ones are encoded again on demand.
 */
@ApplicationScoped
public class EncodedEvents {

    private static final int RECENT = 8192;

    private final ObjectMapper mapper;
    private final AtomicReferenceArray<EncodedEvent> recent = new AtomicReferenceArray<>(RECENT);

    EncodedEvents(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public EncodedEvent of(ChangeEvent event) {
        int slot = (int) (event.revision() % RECENT);
        EncodedEvent encoded = recent.get(slot);
        if (encoded == null || encoded.event() != event) {
            encoded = new EncodedEvent(event, mapper);
            recent.set(slot, encoded);
        }
        return encoded;
    }
}
