package io.watchgate.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit writer takes lines up to its buffer's bytes and drops (and counts) the rest; it never waits. */
class AuditWriterTest {

    record Settings(boolean enabled, String logPath, Optional<Set<String>> verbs, long bufferBytes)
            implements AuditConfig {
    }

    @TempDir
    Path dir;

    @Test
    void aFullBufferDropsNewLinesAndCountsThem() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        AuditWriter writer = new AuditWriter(new Settings(true, dir.resolve("audit.log").toString(),
                Optional.empty(), 100), meters);
        byte[] line = "x".repeat(39).concat("\n").getBytes(StandardCharsets.US_ASCII); // 40 bytes
        // not started: nothing drains the buffer
        assertTrue(writer.offer(line));
        assertTrue(writer.offer(line));
        assertFalse(writer.offer(line), "120 bytes would exceed 100");
        assertFalse(writer.offer(line));
        assertEquals(2.0, meters.get("watchgate.audit.events.dropped").counter().count());
    }

    @Test
    void startedItWritesEveryLineAndDrainsAtShutdown() throws Exception {
        Path log = dir.resolve("audit.log");
        Files.writeString(log, "{\"earlier\":true}\n");
        AuditWriter writer = new AuditWriter(new Settings(true, log.toString(), Optional.empty(), 1 << 20),
                new SimpleMeterRegistry());
        writer.start(null);
        for (int i = 0; i < 1000; i++) {
            assertTrue(writer.offer(("{\"n\":" + i + "}\n").getBytes(StandardCharsets.US_ASCII)));
        }
        writer.stop(null);
        var lines = Files.readAllLines(log);
        assertEquals(1001, lines.size(), "appended to what was there");
        assertEquals("{\"n\":999}", lines.get(1000));
    }
}
