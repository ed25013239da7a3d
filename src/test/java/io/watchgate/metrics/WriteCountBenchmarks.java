package io.watchgate.metrics;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.RequestInfoParser;
import io.watchgate.types.ResourceTypes;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What counting a write costs the event loop that answered it: parsing its path, finding its series and counting.
 * Run as the other JMH benchmarks are (docs/benchmarks.md), with the pattern {@code io.watchgate.metrics}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WriteCountBenchmarks {

    private WriteCountingRoute results;

    @Setup
    public void setUp() {
        results = new WriteCountingRoute(new SimpleMeterRegistry(), new ResourceTypes());
    }

    @Benchmark
    public RequestInfo parsePath() {
        return RequestInfoParser.parse("PUT", "/api/v1/namespaces/bench/configmaps/object-1", null, null);
    }

    @Benchmark
    public void countCreate() {
        results.count("create", RequestInfoParser.parse("POST", "/api/v1/namespaces/bench/configmaps", null, null), false,
                "201");
    }
}
