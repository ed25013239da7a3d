package io.watchgate.bench.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.selector.LabelSelector;
import io.watchgate.watch.WireFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Per-event work: serializing an object once, framing it per wire form, and matching a selector. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EventBenchmarks {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ObjectNode object;
    private byte[] serialized;
    private ProtobufObjects protobuf;
    private LabelSelector selector;
    private Map<String, String> labels;

    @Setup
    public void prepare() throws Exception {
        object = StoreBenchmarks.configMap("cm-1");
        object.withObject("/metadata").put("resourceVersion", "12345").putObject("labels").put("app", "web")
                .put("tier", "frontend");
        serialized = JSON.writeValueAsBytes(object);
        protobuf = new ProtobufObjects(JSON);
        selector = LabelSelector.parse("app=web,tier in (frontend,backend),!canary");
        labels = Map.of("app", "web", "tier", "frontend", "version", "v2");
    }

    /** What a commit does once per event: the object's JSON bytes, shared by every reader and watcher. */
    @Benchmark
    public byte[] serializeJson() throws Exception {
        return JSON.writeValueAsBytes(object);
    }

    @Benchmark
    public Buffer frameJsonLines() {
        return WireFormat.JSON_LINES.frame("MODIFIED", serialized, 12345);
    }

    @Benchmark
    public Buffer frameServerSentEvent() {
        return WireFormat.SERVER_SENT_EVENTS.frame("MODIFIED", serialized, 12345);
    }

    /** A protobuf watch frame: the object's envelope, then the length-prefixed WatchEvent. */
    @Benchmark
    public Buffer frameProtobuf() {
        return WireFormat.PROTOBUF_STREAM.frame("MODIFIED", protobuf.encode(object), 12345);
    }

    @Benchmark
    public boolean matchLabelSelector() {
        return selector.matches(labels);
    }
}
