package io.watchgate.watch.fanout;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.CommitListener;
import io.watchgate.store.Store;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;

/**
 * Publishes every committed event once on the Vert.x event bus, where each event loop's {@link WatchHub} takes
 * it. Publishing only queues the event on each loop, so the commit that calls it is not held up.
 */
@ApplicationScoped
public class EventPublisher {

    /** The event-bus address of committed events. */
    public static final String ADDRESS = "watchgate.committed";
    /** And of the revision the store's state was replaced at, when it was ({@link CommitListener#replaced}). */
    public static final String REPLACED = "watchgate.replaced";

    private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true)
            .setCodecName(ChangeEventCodec.NAME);

    private final Vertx vertx;
    private final Store store;

    EventPublisher(Vertx vertx, Store store) {
        this.vertx = vertx;
        this.store = store;
    }

    void start(@Observes StartupEvent startup) {
        vertx.eventBus().unregisterCodec(ChangeEventCodec.NAME); // left over by a dev-mode reload, if any
        vertx.eventBus().registerCodec(new ChangeEventCodec());
        store.addCommitListener(new CommitListener() {
            @Override
            public void committed(ChangeEvent event) {
                vertx.eventBus().publish(ADDRESS, event, LOCAL);
            }

            /** Watches are not told the changes, which no history holds: they are ended, to relist. */
            @Override
            public void replaced(long revision, List<ChangeEvent> changes) {
                vertx.eventBus().publish(REPLACED, revision, new DeliveryOptions().setLocalOnly(true));
            }
        });
    }

    void stop(@Observes ShutdownEvent shutdown) {
        vertx.eventBus().unregisterCodec(ChangeEventCodec.NAME);
    }
}
