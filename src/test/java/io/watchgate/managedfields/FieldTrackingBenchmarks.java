package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What recording managedFields adds to a write: the creator's entry, an update's, a no-op apply, for a ConfigMap of
 * 1 KiB in 16 keys and one of 80,000 keys (run with {@code -prof gc} for the bytes each allocates).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FieldTrackingBenchmarks {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NOW = "2026-12-07T00:00:00Z";

    private FieldManager manager;
    private ObjectNode empty;
    private ObjectNode small;
    private ObjectNode smallChanged;
    private Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> smallEntries;
    private Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> smallApplied;
    private ObjectNode large;

    @Setup
    public void prepare() {
        Structure root = new Structure(Structure.Shape.MAP);
        root.element = Structure.UNTYPED;
        manager = new FieldManager(root);
        empty = JSON.createObjectNode();
        empty.putObject("metadata");
        small = configMap(16, 56);
        smallChanged = small.deepCopy();
        ((ObjectNode) smallChanged.get("data")).put("k3", "changed");
        smallEntries = manager.update(empty, small, new LinkedHashMap<>(), creator(), NOW);
        smallApplied = manager.apply(small, small.deepCopy(), smallEntries, true,
                ManagedFieldsEntry.Key.apply("kubectl", ""), "v1", false, NOW).entries();
        large = configMap(80_000, 1);
    }

    private static ManagedFieldsEntry.Key creator() {
        return ManagedFieldsEntry.Key.update("kubectl-create", "v1", "");
    }

    private static ObjectNode configMap(int keys, int valueLength) {
        ObjectNode object = JSON.createObjectNode();
        object.put("apiVersion", "v1").put("kind", "ConfigMap");
        object.putObject("metadata").put("name", "cm").put("namespace", "default");
        ObjectNode data = object.putObject("data");
        for (int i = 0; i < keys; i++) {
            data.put("k" + i, "v".repeat(valueLength));
        }
        return object;
    }

    /** A create's entry, written as JSON: what every POST now adds. */
    @Benchmark
    public ArrayNode createEntrySmall() {
        return ManagedFields.encode(manager.update(empty, small, new LinkedHashMap<>(), creator(), NOW).values());
    }

    /** An update of one key by another manager: the entries read, changed and written again. */
    @Benchmark
    public ArrayNode updateEntrySmall() {
        return ManagedFields.encode(manager.update(small, smallChanged, smallEntries,
                ManagedFieldsEntry.Key.update("editor", "v1", ""), NOW).values());
    }

    /** kubectl applying what it applied before: merge, prune, compare, and nothing changes. */
    @Benchmark
    public ArrayNode applyUnchangedSmall() {
        return ManagedFields.encode(manager.apply(small, small, smallApplied, true,
                ManagedFieldsEntry.Key.apply("kubectl", ""), "v1", false, NOW).entries().values());
    }

    /** A create's entry for an object of 80,000 keys (1.2 MB): the cost per field. */
    @Benchmark
    public ArrayNode createEntryLarge() {
        return ManagedFields.encode(manager.update(empty, large, new LinkedHashMap<>(), creator(), NOW).values());
    }
}
