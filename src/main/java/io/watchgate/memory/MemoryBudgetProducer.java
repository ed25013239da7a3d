package io.watchgate.memory;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/** Makes the server's one {@link MemoryBudget} from its configuration and the heap it runs in. */
@ApplicationScoped
public class MemoryBudgetProducer {

    private static final Logger LOG = Logger.getLogger(MemoryBudgetProducer.class);

    @Produces
    @Singleton
    MemoryBudget budget(MemoryConfig config) {
        long heap = Runtime.getRuntime().maxMemory();
        long limit = config.budgetBytes().orElse((long) (heap * config.budgetHeapFraction()));
        LOG.infof("memory budget: %d MiB (the heap may grow to %d MiB)", limit >> 20, heap >> 20);
        return new MemoryBudget(limit, config.retryAfterSeconds());
    }
}
