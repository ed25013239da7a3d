package io.watchgate.bench.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.store.Commits;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.KeyRange;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Page;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** The MVCC store's hot paths: a commit, a snapshot read of a collection, and history replay for a watcher. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StoreBenchmarks {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Param({"10000"})
    int objects;

    private MemoryStore store;
    private ObjectKey[] keys;
    private int next;

    static ObjectNode configMap(String name) {
        ObjectNode object = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        object.putObject("metadata").put("name", name).put("namespace", "bench");
        object.putObject("data").put("payload", "x".repeat(1024));
        return object;
    }

    @Setup
    public void fill() {
        store = new MemoryStore(JSON, 100_000, 1L << 30, Clock.systemUTC());
        keys = new ObjectKey[objects];
        for (int i = 0; i < objects; i++) {
            keys[i] = new ObjectKey("configmaps", "bench", "cm-" + i);
            Commits.commit(store, Mutation.create(keys[i], configMap("cm-" + i)));
        }
    }

    /** An unconditional update of a 1 KiB object: precondition, stamp, serialize once, install, history. */
    @Benchmark
    public ChangeEvent commitUpdate() {
        ObjectKey key = keys[next++ % keys.length];
        return Commits.commit(store, Mutation.update(key, configMap(key.name()), 0));
    }

    /** A full list of the collection at the current revision (what a relist reads). */
    @Benchmark
    public Page listAll() {
        return store.list(KeyRange.inNamespace("configmaps", "bench"), store.currentRevision(), null,
                Integer.MAX_VALUE, object -> true, false);
    }

    /** A catching-up watcher's batch: 256 events from history, 1,000 revisions back. */
    @Benchmark
    public List<ChangeEvent> replayHistory() {
        return store.eventsAfter(store.currentRevision() - 1000, 256);
    }
}
