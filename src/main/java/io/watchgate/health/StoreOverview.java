package io.watchgate.health;

import io.smallrye.health.api.Wellness;
import io.watchgate.store.ObjectCounts;
import io.watchgate.store.Store;
import io.watchgate.watch.fanout.WatchCounts;
import io.watchgate.watch.fanout.WatchHubs;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.TreeSet;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * The store at a glance: revision, objects by resource and open watches by resource and form. A wellness check
 * (at {@code /q/health} and {@code /q/health/well}, never asked by a probe), so that the Dev UI's Health page shows
 * it as a card, and an operator with curl sees the same without reading the Prometheus text. The values are
 * strings because that card shows string values only (numbers come out blank).
 */
@Wellness
@ApplicationScoped
public class StoreOverview implements HealthCheck {

    static final String NAME = "watchgate";

    private final Store store;
    private final WatchHubs watches;

    StoreOverview(Store store, WatchHubs watches) {
        this.store = store;
        this.watches = watches;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder overview = HealthCheckResponse.named(NAME).up()
                .withData("revision", Long.toString(store.currentRevision()))
                .withData("oldestRevision", Long.toString(store.oldestRevision()));
        ObjectCounts objects = store.statistics().objectCounts();
        long total = 0;
        for (String resource : new TreeSet<>(objects.resources())) {
            long count = objects.of(resource);
            total += count;
            if (count > 0) {
                overview.withData("objects " + resource, Long.toString(count));
            }
        }
        overview.withData("objects", Long.toString(total));
        overview.withData("watches", Integer.toString(watches.active()));
        WatchCounts counts = watches.counts();
        for (WatchCounts.Kind kind : counts.kinds()) {
            int open = counts.open(kind);
            if (open > 0) {
                overview.withData("watches " + kind.resource() + " (" + kind.form() + ")", Integer.toString(open));
            }
        }
        return overview.build();
    }
}
