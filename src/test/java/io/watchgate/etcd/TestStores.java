package io.watchgate.etcd;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.memory.MemoryBudget;
import io.watchgate.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

/** etcd-backed stores for tests outside this package (close them: they are {@link AutoCloseable}). */
public final class TestStores {

    private TestStores() {
    }

    /** A replica on {@code etcd}, its keys under {@code prefix}, keeping {@code maxRevisions} events of history. */
    public static Store onEtcd(EtcdServer etcd, String prefix, int maxRevisions) {
        return EtcdStorage.open(new TestEtcdConfig(List.of(etcd.endpoint()), prefix, Duration.ofSeconds(5)),
                new ObjectMapper(), maxRevisions, Long.MAX_VALUE, Clock.systemUTC(), MemoryBudget.unbounded(),
                ForkJoinPool.commonPool());
    }
}
