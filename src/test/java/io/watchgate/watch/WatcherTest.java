package io.watchgate.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.objects.Selection;
import io.watchgate.store.Commits;
import io.watchgate.store.KeyRange;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One watcher against a client that keeps filling its buffers, on a loop driven by hand: whatever order drains,
 * timers and live events come in, every event is sent once, in order.
 */
class WatcherTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern EVENT = Pattern.compile("\\{\"type\":\"(\\w+)\",\"object\":.*\"name\":\"([^\"]+)\".*"
            + "\"resourceVersion\":\"(\\d+)\"");

    private final MemoryStore store = new MemoryStore(JSON, 1000, Long.MAX_VALUE, Clock.systemUTC());
    private final ResourceType configMaps = new ResourceTypes().find("", "v1", "configmaps").orElseThrow();
    private final HandDrivenLoop loop = new HandDrivenLoop();
    private final FakeSink sink = choking();
    private final EncodedEvents frames = new EncodedEvents(JSON);
    private WatchConfig config = new SmallBatches(Long.MAX_VALUE);

    @Test
    void drainsThatComeAgainNeverResendInitialEventsNorMoveTheWatchBack() {
        for (int i = 0; i < 7; i++) {
            create("cm-" + i);
        }
        Watcher watcher = watcher(true);
        watcher.start();
        // Vert.x calls a drain handler at every return to writable: call it often, interleaved with bookmark
        // timers (which write when the watcher is live) and with its own continuations
        for (int round = 0; round < 50; round++) {
            sink.drain();
            watcher.onTimer(Watcher.TimerKind.BOOKMARK);
            loop.runQueued();
        }
        sink.drain();
        loop.runQueued();
        assertTrue(watcher.isLive(), "it got through the snapshot: " + events(sink));
        create("cm-live");
        watcher.offer(new EncodedEvents(JSON).of(store.eventsAfter(store.currentRevision() - 1).get(0)));
        for (int round = 0; round < 20; round++) {
            sink.drain();
            loop.runQueued();
        }
        List<String> adds = events(sink).stream().filter(e -> e.startsWith("ADDED")).toList();
        assertEquals(List.of("ADDED cm-0", "ADDED cm-1", "ADDED cm-2", "ADDED cm-3", "ADDED cm-4", "ADDED cm-5",
                "ADDED cm-6", "ADDED cm-live"), adds.stream().map(e -> e.substring(0, e.lastIndexOf(' '))).toList());
        assertEquals(1, events(sink).stream().filter(e -> e.equals("BOOKMARK initial-events-end")).count(),
                "one end-of-initial-events bookmark");
    }

    @Test
    void aWatcherThatStallsWhileCatchingUpResumesWhereItStopped() {
        create("before");
        long from = store.currentRevision();
        for (int i = 0; i < 9; i++) {
            create("cm-" + i);
        }
        Watcher watcher = watcher(false, from);
        watcher.start();
        for (int round = 0; round < 50; round++) {
            sink.drain();
            loop.runQueued();
        }
        List<String> revisions = events(sink).stream().filter(e -> !e.startsWith("BOOKMARK"))
                .map(e -> e.substring(e.lastIndexOf(' ') + 1)).toList();
        List<String> expected = new ArrayList<>();
        for (long r = from + 1; r <= store.currentRevision(); r++) {
            expected.add(Long.toString(r));
        }
        assertEquals(expected, revisions);
    }

    @Test
    void aWatcherOfOneObjectThatStallsCatchesUpFromWhatItsLoopFannedOutNotFromItsOwnLastEvent() {
        // its loop fans out more writes of other objects than history keeps (1,000 revisions), none offered to it
        stallPastOthersWritesAndCatchUp(spec(configMaps, new KeyRange("configmaps", "ns"), "metadata.name=mine"),
                i -> create("other-" + i));
    }

    @Test
    void aWatcherOfOneNamespaceThatStallsCatchesUpFromWhatItsLoopFannedOutNotFromItsOwnLastEvent() {
        WatchSpec spec = spec(configMaps, new KeyRange("configmaps", "ns"), null);
        assertEquals(new KeyRange("configmaps", "ns"), spec.onlyNamespace(), "its loop offers it its namespace alone");
        // its loop fans out more writes in another namespace than history keeps, none offered to it
        stallPastOthersWritesAndCatchUp(spec, i -> create("elsewhere", "other-" + i, 0));
    }

    /**
     * A watcher gets its object "mine", then 1,100 writes it is not offered go by ({@code otherWrite}), then it
     * stalls: it must catch up from what its loop fanned out, missing nothing, not fall out of history.
     */
    private void stallPastOthersWritesAndCatchUp(WatchSpec spec, IntConsumer otherWrite) {
        Watcher watcher = new Watcher(spec, sink, loop, store, frames, config);
        watcher.start();
        create("mine");
        offerNewest(watcher);
        sink.drain();
        loop.runQueued();
        for (int i = 0; i < 1_100; i++) {
            otherWrite.accept(i);
        }
        watcher.onTimer(Watcher.TimerKind.BOOKMARK); // the client's buffer is full after it: a stall
        for (int round = 0; round < 5; round++) {
            sink.drain();
            loop.runQueued();
        }
        assertTrue(watcher.isLive(), "not ended as fallen out of history: it missed nothing");
        assertEquals(0, loop.endedSlow);
        assertEquals(List.of("ADDED mine"), events(sink).stream().filter(e -> !e.startsWith("BOOKMARK"))
                .map(e -> e.substring(0, e.lastIndexOf(' '))).toList());
    }

    @Test
    void onlyASingleWatchOfOneNamespaceAndNoOneObjectIsFiledUnderItsNamespace() {
        ResourceType namespaces = new ResourceTypes().find("", "v1", "namespaces").orElseThrow();
        assertEquals(new KeyRange("configmaps", "ns"),
                spec(configMaps, new KeyRange("configmaps", "ns"), null).onlyNamespace());
        assertEquals(null, spec(configMaps, KeyRange.allOf("configmaps"), null).onlyNamespace());
        assertEquals(null, spec(configMaps, new KeyRange("configmaps", "ns"), "metadata.name=mine").onlyNamespace(),
                "filed under its object instead");
        assertEquals(null, spec(namespaces, KeyRange.allOf("namespaces"), null).onlyNamespace());
    }

    private static WatchSpec spec(ResourceType type, KeyRange range, String fieldSelector) {
        return new WatchSpec(type, range, Selection.parse(type, null, fieldSelector), false, WatchSpec.UNSET, true,
                false, Duration.ofHours(1), ObjectRendering.AS_STORED, WatchGrant.ALWAYS);
    }

    @Test
    void whatIsQueuedForAStalledClientCountsUntilItDrains() {
        Watcher watcher = watcher(false);
        watcher.start();
        create("big", 50_000);
        offerNewest(watcher);

        assertTrue(loop.pinned >= 50_000, "a frame of 50 kB and the queue before it: " + loop.pinned);
        sink.drain();
        loop.runQueued();
        assertEquals(0, loop.pinned);
        assertTrue(watcher.isLive());
    }

    @Test
    void aStalledWatcherIsEndedOnceTheBytesThatWentByPassItsBound() {
        config = new SmallBatches(130_000);
        Watcher watcher = watcher(false);
        watcher.start();
        create("first", 100);
        offerNewest(watcher); // its client stops reading here
        for (int i = 0; i < 3; i++) {
            create("big-" + i, 40_000);
            offerNewest(watcher);
            assertEquals(0, loop.endedSlow, "only " + (i + 1) * 40 + " kB went by");
        }
        create("big-3", 40_000);
        offerNewest(watcher);

        assertEquals(1, loop.endedSlow, "160 kB went by: past 130 kB");
        assertTrue(sink.aborted, "its connection was dropped, as for any client that stops reading");
    }

    @Test
    void aWatcherStalledInItsInitialEventsIsBoundedLikeAnyOther() {
        config = new SmallBatches(100_000);
        for (int i = 0; i < 5; i++) {
            create("cm-" + i, 1000);
        }
        Watcher watcher = watcher(true);
        watcher.start();
        assertTrue(loop.pinned > 0, "its client stopped reading at the first object");
        for (int i = 0; i < 3; i++) {
            create("big-" + i, 40_000);
            offerNewest(watcher);
        }

        assertEquals(1, loop.endedSlow);
        assertTrue(sink.aborted);
    }

    private void offerNewest(Watcher watcher) {
        watcher.offer(frames.of(store.eventsAfter(store.currentRevision() - 1).get(0)));
    }

    private void create(String name) {
        create(name, 0);
    }

    private void create(String name, int bytes) {
        create("ns", name, bytes);
    }

    private void create(String namespace, String name, int bytes) {
        ObjectNode object = JSON.createObjectNode();
        object.put("apiVersion", "v1").put("kind", "ConfigMap");
        object.putObject("metadata").put("name", name).put("namespace", namespace);
        if (bytes > 0) {
            object.putObject("data").put("k", "x".repeat(bytes));
        }
        Commits.commit(store, Mutation.create(new ObjectKey("configmaps", namespace, name), object));
    }

    private Watcher watcher(boolean initialEvents) {
        return watcher(initialEvents, WatchSpec.UNSET);
    }

    private Watcher watcher(boolean initialEvents, long resourceVersion) {
        WatchSpec spec = new WatchSpec(configMaps, new KeyRange("configmaps", "ns"),
                Selection.parse(configMaps, null, null), initialEvents, resourceVersion, true, initialEvents,
                Duration.ofHours(1), ObjectRendering.AS_STORED, WatchGrant.ALWAYS);
        return new Watcher(spec, sink, loop, store, frames, config);
    }

    /** A client whose buffer is full after every write, until it drains. */
    private static FakeSink choking() {
        FakeSink sink = new FakeSink(WireFormat.JSON_LINES);
        sink.chokeAfterEachWrite = true;
        return sink;
    }

    /** "TYPE name revision" per watch event. */
    private static List<String> events(FakeSink sink) {
        List<String> events = new ArrayList<>();
        for (String frame : sink.frames) {
            Matcher m = EVENT.matcher(frame);
            if (m.find()) {
                events.add(m.group(1) + " " + m.group(2) + " " + m.group(3));
            } else if (frame.contains("k8s.io/initial-events-end")) {
                events.add("BOOKMARK initial-events-end");
            } else if (frame.contains("\"BOOKMARK\"")) {
                events.add("BOOKMARK");
            }
        }
        return events;
    }

    private final class HandDrivenLoop implements WatchLoop {
        private final Queue<Runnable> queued = new ArrayDeque<>();

        @Override
        public long lastRevision() {
            return store.currentRevision();
        }

        @Override
        public void runSoon(Runnable task) {
            queued.add(task);
        }

        void runQueued() {
            for (int n = queued.size(); n > 0; n--) {
                queued.poll().run();
            }
        }

        @Override
        public void schedule(Subscriber subscriber, Subscriber.TimerKind kind, long delayMillis) {
        }

        long pinned;
        int endedSlow;

        @Override
        public void pinned(Subscriber subscriber, long bytes) {
            pinned = bytes;
        }

        @Override
        public void unpinned(Subscriber subscriber) {
            pinned = 0;
        }

        @Override
        public void detach(Subscriber subscriber, boolean slow) {
            unpinned(subscriber);
            endedSlow += slow ? 1 : 0;
        }
    }

    private record SmallBatches(long maxBacklogBytes) implements WatchConfig {
        public Duration minDuration() { return Duration.ofMinutes(30); }
        public Duration maxDuration() { return Duration.ofMinutes(60); }
        public Duration bookmarkInterval() { return Duration.ofSeconds(60); }
        public Duration sseHeartbeat() { return Duration.ofSeconds(15); }
        public Duration sseRetry() { return Duration.ofSeconds(3); }
        public int maxBacklog() { return 1000; }
        public int maxWatchers() { return 10; }
        public int batchSize() { return 2; }
        public long batchBytes() { return 1 << 20; }
    }
}
