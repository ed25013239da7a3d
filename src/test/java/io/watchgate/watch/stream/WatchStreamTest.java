package io.watchgate.watch.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.objects.Selection;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Commits;
import io.watchgate.store.KeyRange;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import io.watchgate.watch.EncodedEvent;
import io.watchgate.watch.EncodedEvents;
import io.watchgate.watch.EventFilter;
import io.watchgate.watch.FakeSink;
import io.watchgate.watch.ObjectRendering;
import io.watchgate.watch.Subscriber;
import io.watchgate.watch.WatchConfig;
import io.watchgate.watch.WatchGrant;
import io.watchgate.watch.WatchLoop;
import io.watchgate.watch.WatchSpec;
import io.watchgate.watch.WireFormat;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A stream of several watches on a loop driven by hand: one order for all of them, each watch sent exactly what a
 * single watch of it would be, and one id that resumes them all.
 */
class WatchStreamTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ResourceTypes TYPES = new ResourceTypes();
    private static final ResourceType CONFIG_MAPS = TYPES.find("", "v1", "configmaps").orElseThrow();
    private static final ResourceType SECRETS = TYPES.find("", "v1", "secrets").orElseThrow();

    private final MemoryStore store = new MemoryStore(JSON, 1000, Long.MAX_VALUE, Clock.systemUTC());
    private final EncodedEvents frames = new EncodedEvents(JSON);
    private final HandDrivenLoop loop = new HandDrivenLoop();
    private final FakeSink sink = new FakeSink(WireFormat.SERVER_SENT_EVENTS);
    private int coalesce;

    /** One event as the client reads it. */
    private record Received(String id, String event, String watch, String type, JsonNode object,
            boolean coalesced) {
        long revision() {
            return Long.parseLong(object.path("metadata").path("resourceVersion").asText());
        }

        String name() {
            return object.path("metadata").path("name").asText();
        }
    }

    @Test
    void eventsOfEveryWatchComeInOneRevisionOrderEachAsItsSingleWatchWouldHaveThem() {
        long from = store.currentRevision();
        StreamedWatch selected = watch("/api/v1/namespaces/a/configmaps?labelSelector=app%3Dx", CONFIG_MAPS, "a",
                "app=x", from);
        StreamedWatch secrets = watch("/api/v1/namespaces/b/secrets", SECRETS, "b", null, from);
        WatchStream stream = stream(List.of(selected, secrets));
        stream.start();
        loop.runAll();
        // interleaved writes of both types, in and out of the selector, and in other namespaces
        for (int i = 0; i < 30; i++) {
            put(CONFIG_MAPS, "a", "cm-" + (i % 7), i % 3 == 0 ? "x" : "y");
            put(SECRETS, "b", "s-" + (i % 5), null);
            put(CONFIG_MAPS, "b", "elsewhere-" + i, "x");
            if (i % 4 == 0) {
                offerLive(stream); // some live, the rest caught up from history as a stalled stream would
            }
        }
        offerLive(stream);
        loop.runAll();

        List<Received> received = events(sink);
        assertStrictlyIncreasing(received);
        assertEquals(singleWatch(selected, from), of(received, selected.url()));
        assertEquals(singleWatch(secrets, from), of(received, secrets.url()));
        assertTrue(received.stream().anyMatch(e -> e.type().equals("DELETED")),
                "objects that left the selector were sent as DELETED: " + received);
    }

    @Test
    void anEventForTwoWatchesIsSentToEachWithTheIdOnTheLastOnly() {
        long from = store.currentRevision();
        StreamedWatch all = watch("/api/v1/configmaps", CONFIG_MAPS, null, null, from);
        StreamedWatch inA = watch("/api/v1/namespaces/a/configmaps", CONFIG_MAPS, "a", null, from);
        WatchStream stream = stream(List.of(all, inA));
        stream.start();
        loop.runAll();
        put(CONFIG_MAPS, "a", "both", null);
        offerLive(stream);
        List<Received> received = events(sink);
        assertEquals(2, received.size(), received.toString());
        assertEquals(List.of(all.url(), inA.url()), received.stream().map(Received::watch).toList());
        assertNull(received.get(0).id(), "a cut between the two resumes before both");
        assertEquals(Long.toString(store.currentRevision()), received.get(1).id());
    }

    @Test
    void resumingAfterAnIdSendsEveryWatchExactlyWhatCameAfterIt() {
        StreamedWatch cms = watch("/api/v1/namespaces/a/configmaps", CONFIG_MAPS, "a", null, WatchSpec.UNSET);
        long start = store.currentRevision();
        for (int i = 0; i < 10; i++) {
            put(CONFIG_MAPS, "a", "cm-" + i, null);
            put(SECRETS, "b", "s-" + i, null);
        }
        long resumeAfter = start + 9; // the middle of the run
        StreamedWatch resumedMaps = watch(cms.url(), CONFIG_MAPS, "a", null, resumeAfter);
        StreamedWatch resumedSecrets = watch("/api/v1/secrets", SECRETS, null, null, resumeAfter);
        WatchStream stream = stream(List.of(resumedMaps, resumedSecrets));
        stream.start();
        loop.runAll();
        List<Received> received = events(sink);
        assertStrictlyIncreasing(received);
        assertEquals(store.currentRevision() - resumeAfter, received.size(), "each change after it, once");
        assertEquals(resumeAfter + 1, received.get(0).revision());
        assertTrue(stream.isLive());
    }

    @Test
    void snapshotsComeAfterTheHistoryBeforeThemAndNoIdIsSentUntilEachHasItsBookmark() {
        put(CONFIG_MAPS, "a", "old-1", null);
        put(CONFIG_MAPS, "a", "old-2", null);
        long from = store.currentRevision();
        put(SECRETS, "b", "s-1", null);
        put(SECRETS, "b", "s-2", null);
        long snapshot = store.currentRevision();
        StreamedWatch fromHistory = watch("/api/v1/namespaces/b/secrets", SECRETS, "b", null, from);
        StreamedWatch withSnapshot = watch("/api/v1/namespaces/a/configmaps", CONFIG_MAPS, "a", null,
                WatchSpec.UNSET, true);
        WatchStream stream = stream(List.of(fromHistory, withSnapshot));
        stream.start();
        loop.runAll();
        put(CONFIG_MAPS, "a", "new", null);
        offerLive(stream);

        List<String> seen = events(sink).stream().map(e -> e.type() + " " + e.name() + " " + e.id()).toList();
        assertEquals(List.of("ADDED s-1 null", "ADDED s-2 null", "ADDED old-1 null", "ADDED old-2 null",
                "BOOKMARK  " + snapshot, "ADDED new " + store.currentRevision()), seen);
        assertEquals("true", events(sink).get(4).object().path("metadata").path("annotations")
                .path("k8s.io/initial-events-end").asText());
    }

    @Test
    void aClientThatStopsReadingStallsAndThenGetsEverythingOnceInOrder() {
        long from = store.currentRevision();
        StreamedWatch cms = watch("/api/v1/namespaces/a/configmaps", CONFIG_MAPS, "a", null, from);
        StreamedWatch secrets = watch("/api/v1/namespaces/b/secrets", SECRETS, "b", null, from);
        WatchStream stream = stream(List.of(cms, secrets));
        sink.chokeAfterEachWrite = true;
        stream.start();
        for (int i = 0; i < 20; i++) {
            put(i % 2 == 0 ? CONFIG_MAPS : SECRETS, i % 2 == 0 ? "a" : "b", "o-" + i, null);
            offerLive(stream);
            if (i % 3 == 0) {
                sink.drain();
                loop.runAll();
            }
        }
        for (int i = 0; i < 40; i++) {
            sink.drain();
            loop.runAll();
        }
        List<Received> received = events(sink);
        assertStrictlyIncreasing(received);
        assertEquals(20, received.size(), received.toString());
    }

    @Test
    void aPositionOlderThanTheHistoryEndsTheWholeStreamWithOne410() {
        put(CONFIG_MAPS, "a", "first", null);
        long from = store.currentRevision();
        for (int i = 0; i < 5; i++) {
            put(CONFIG_MAPS, "a", "cm-" + i, null);
        }
        store.compactTo(store.currentRevision(), 100);
        WatchStream stream = stream(List.of(watch("/api/v1/namespaces/a/configmaps", CONFIG_MAPS, "a", null, from),
                watch("/api/v1/secrets", SECRETS, null, null, from)));
        stream.start();
        loop.runAll();
        assertEquals(1, sink.frames.size(), sink.frames.toString());
        String frame = sink.frames.get(0);
        assertTrue(frame.startsWith("id\nevent: ERROR\n"), "the EventSource forgets its last id: " + frame);
        JsonNode data = data(frame);
        assertFalse(data.has("watch"), "it is the stream's, not one watch's");
        assertEquals(410, data.path("object").path("code").asInt());
        assertTrue(sink.ended);
        assertTrue(stream.hasEnded());
    }

    @Test
    void aWatchWhoseGrantIsWithdrawnGetsItsOwn403AndTheOthersGoOn() {
        long from = store.currentRevision();
        AtomicBoolean allowed = new AtomicBoolean(true);
        StreamedWatch revoked = new StreamedWatch("/api/v1/namespaces/b/secrets",
                spec(SECRETS, "b", null, from, false).grantedBy(allowed::get));
        StreamedWatch kept = watch("/api/v1/namespaces/a/configmaps", CONFIG_MAPS, "a", null, from);
        WatchStream stream = stream(List.of(revoked, kept));
        stream.start();
        loop.runAll();
        allowed.set(false);
        stream.recheckGrants();
        assertEquals(List.of("configmaps"), stream.watchedResources());
        assertEquals(List.of("secrets"), loop.endedWatches);
        put(SECRETS, "b", "hidden", null);
        put(CONFIG_MAPS, "a", "shown", null);
        offerLive(stream);
        List<Received> received = events(sink);
        assertEquals(List.of("ERROR " + revoked.url(), "ADDED " + kept.url()),
                received.stream().map(e -> e.type() + " " + e.watch()).toList());
        assertEquals(403, received.get(0).object().path("code").asInt());
        assertFalse(stream.hasEnded());
    }

    @Test
    void aCoalescingStreamWhoseClientFallsBehindIsSentTheLatestChangeOfEachObjectThenGoesOnLive() {
        for (int i = 0; i < 100; i++) {
            put(CONFIG_MAPS, "a", "cm-" + i, "x");
        }
        long from = store.currentRevision();
        coalesce = 1000;
        StreamedWatch selected = watch("/api/v1/namespaces/a/configmaps?labelSelector=app%3Dx", CONFIG_MAPS, "a",
                "app=x", from);
        WatchStream stream = stream(List.of(selected));
        stream.start();
        loop.runAll();
        sink.chokeAfterEachWrite = true; // the client takes one frame, then stops reading
        for (int i = 0; i < 10_000; i++) {
            put(CONFIG_MAPS, "a", "cm-" + i % 100, i == 9_950 ? "y" : "x"); // cm-50 leaves the selector
            if (i % 500 == 0) {
                offerLive(stream);
            }
        }
        put(CONFIG_MAPS, "a", "came-and-went", "x");
        delete(CONFIG_MAPS, "a", "came-and-went");
        offerLive(stream);
        int behind = events(sink).size();
        sink.chokeAfterEachWrite = false;
        sink.drain();
        loop.runAll();
        put(CONFIG_MAPS, "a", "live", "x");
        offerLive(stream);

        List<Received> received = events(sink);
        List<Received> coalesced = received.stream().filter(Received::coalesced).toList();
        assertTrue(coalesced.size() <= 100, "at most one event an object: " + coalesced.size());
        assertEquals(received.size(), behind + coalesced.size() + 1, "the frame it took, the coalesced, one live");
        assertEquals(1, behind, "the client took one frame before it stopped reading");
        assertStrictlyIncreasing(received);
        assertEquals("ADDED live", received.get(received.size() - 1).type() + " "
                + received.get(received.size() - 1).name());
        assertTrue(stream.isLive());
        // what the client ends with is what the store holds
        java.util.Map<String, Long> state = new java.util.TreeMap<>();
        for (Received event : received) {
            if (event.type().equals("DELETED")) {
                state.remove(event.name());
            } else {
                state.put(event.name(), event.revision());
            }
        }
        java.util.Map<String, Long> expected = new java.util.TreeMap<>();
        for (int i = 0; i < 100; i++) {
            if (i != 50) {
                StoredObject object = store.get(new ObjectKey("configmaps", "a", "cm-" + i), store.currentRevision());
                expected.put("cm-" + i, object.revision());
            }
        }
        expected.put("live", store.currentRevision());
        assertEquals(expected, state);
        assertEquals("DELETED", coalesced.stream().filter(e -> e.name().equals("cm-50")).findFirst().orElseThrow()
                .type(), "it left the selector: the client drops it");
        assertFalse(received.stream().anyMatch(e -> e.name().equals("came-and-went")), "nothing of what came and went");
    }

    @Test
    void aCoalescingStreamEndsOnceMoreObjectsChangedThanItKeeps() {
        long from = store.currentRevision();
        coalesce = 10;
        WatchStream stream = stream(List.of(watch("/api/v1/namespaces/a/configmaps", CONFIG_MAPS, "a", null, from)));
        stream.start();
        loop.runAll();
        sink.chokeAfterEachWrite = true;
        for (int i = 0; i < 12; i++) {
            put(CONFIG_MAPS, "a", "cm-" + i, null);
            offerLive(stream);
        }
        assertTrue(stream.hasEnded());
        assertTrue(sink.aborted, "a client that far behind is cut off, as any slow client");
    }

    @Test
    void aWatchAddedWhileTheClientIsBehindGetsItsStateOnceWhatWasKeptIsSent() {
        put(SECRETS, "b", "existing", null);
        long from = store.currentRevision();
        coalesce = 100;
        WatchStream stream = stream(List.of(watch("/api/v1/namespaces/a/configmaps", CONFIG_MAPS, "a", null, from)));
        StreamMembers members = new StreamMembers(stream);
        stream.start();
        loop.runAll();
        sink.chokeAfterEachWrite = true;
        put(CONFIG_MAPS, "a", "first", null);
        offerLive(stream); // written, then the client is full: the stream keeps what follows
        put(CONFIG_MAPS, "a", "kept", null);
        offerLive(stream);
        members.add(new StreamedWatch("secrets", "/api/v1/namespaces/b/secrets", spec(SECRETS, "b", null,
                WatchSpec.UNSET, true)));
        put(SECRETS, "b", "after", null);
        offerLive(stream);
        sink.chokeAfterEachWrite = false;
        sink.drain();
        loop.runAll();
        put(SECRETS, "b", "later", null);
        offerLive(stream);

        // its state as of the end of what was kept (in key order), its bookmark, then its changes
        List<String> seen = events(sink).stream().map(e -> e.watch() + " " + e.type() + " " + e.name()).toList();
        assertEquals(List.of("/api/v1/namespaces/a/configmaps ADDED first", "/api/v1/namespaces/a/configmaps ADDED kept",
                "secrets ADDED after", "secrets ADDED existing", "secrets BOOKMARK ", "secrets ADDED later"), seen);
        assertTrue(stream.isLive());
    }

    @Test
    void whatWasKeptForAWatchThatStoppedIsNotSent() {
        long from = store.currentRevision();
        coalesce = 100;
        StreamedWatch stopped = new StreamedWatch("w1", "/api/v1/namespaces/a/configmaps",
                spec(CONFIG_MAPS, "a", null, from, false));
        WatchStream stream = stream(List.of(stopped, watch("/api/v1/namespaces/b/secrets", SECRETS, "b", null,
                from)));
        stream.start();
        loop.runAll();
        sink.chokeAfterEachWrite = true;
        put(SECRETS, "b", "first", null);
        offerLive(stream);
        put(CONFIG_MAPS, "a", "of-the-stopped", null);
        put(SECRETS, "b", "kept", null);
        offerLive(stream);
        assertTrue(new StreamMembers(stream).stop("w1"));
        sink.chokeAfterEachWrite = false;
        sink.drain();
        loop.runAll();
        assertEquals(List.of("secrets ADDED first", "w1 STOPPED", "secrets ADDED kept"),
                events(sink).stream().map(e -> shortTag(e.watch()) + " " + e.type() + (e.name().isEmpty() ? ""
                        : " " + e.name())).toList(), "a stop is answered even while its client is behind");
        assertFalse(sink.ended);
    }

    @Test
    void aClientThatStopsWatchesWithoutReadingTheAnswersIsEndedAsOneThatStoppedReading() {
        long from = store.currentRevision();
        WatchStream stream = stream(List.of(watch("/api/v1/namespaces/b/secrets", SECRETS, "b", null, from)));
        stream.start();
        loop.runAll();
        sink.chokeAfterEachWrite = true;
        put(SECRETS, "b", "first", null);
        offerLive(stream); // the client reads no more
        StreamMembers members = new StreamMembers(stream);
        int answered = 0;
        while (!stream.hasEnded() && answered <= 2 * new SmallBatches().maxBacklog()) {
            StreamedWatch added = new StreamedWatch("w", "/api/v1/namespaces/a/configmaps",
                    spec(CONFIG_MAPS, "a", null, store.currentRevision(), false));
            members.add(added);
            assertTrue(members.stop("w"));
            answered++;
        }
        assertTrue(stream.hasEnded() && sink.aborted, "ended after " + answered + " answers it did not read");
        assertEquals(new SmallBatches().maxBacklog() + 1, answered, "as many as the events it may fall behind by");
    }

    /** A test watch's URL as short as a WebSocket client's id: its last segment. */
    private static String shortTag(String tag) {
        return tag.substring(tag.lastIndexOf('/') + 1);
    }

    @Test
    void bookmarksOfAnIdleStreamMoveItsIdOnlyWhenTheLoopMovedOn() {
        long from = store.currentRevision();
        WatchStream stream = stream(List.of(watch("/api/v1/namespaces/a/configmaps", CONFIG_MAPS, "a", null, from)));
        stream.start();
        loop.runAll();
        put(SECRETS, "b", "elsewhere", null);
        offerLive(stream);
        stream.onTimer(Subscriber.TimerKind.BOOKMARK);
        stream.onTimer(Subscriber.TimerKind.BOOKMARK);
        put(SECRETS, "b", "elsewhere-again", null);
        offerLive(stream);
        stream.onTimer(Subscriber.TimerKind.BOOKMARK);
        List<String> ids = sink.frames.stream().filter(f -> f.contains("event: BOOKMARK"))
                .map(f -> f.substring(4, f.indexOf('\n'))).toList();
        assertEquals(List.of(Long.toString(from + 1), Long.toString(from + 2)), ids, "one bookmark a new revision");
    }

    // --- fixtures

    private void delete(ResourceType type, String namespace, String name) {
        ObjectKey key = new ObjectKey(type.resource(), namespace, name);
        Commits.commit(store, Mutation.delete(key, store.get(key, store.currentRevision()).revision()));
    }

    private static void assertStrictlyIncreasing(List<Received> received) {
        long last = 0;
        for (Received event : received) {
            assertTrue(event.revision() > last, "out of order at " + event + " in " + received);
            last = event.revision();
            assertEquals(Long.toString(event.revision()), event.id(), "each event carries its revision as id");
        }
    }

    /** What a single watch of {@code watch}'s spec is sent after {@code from}: "TYPE name revision". */
    private List<String> singleWatch(StreamedWatch watch, long from) {
        List<String> expected = new ArrayList<>();
        for (ChangeEvent event : store.eventsAfter(from)) {
            EncodedEvent.Variant variant = EventFilter.variantFor(event, watch.spec().range(),
                    watch.spec().selection());
            if (variant != null) {
                EncodedEvent encoded = frames.of(event);
                expected.add(encoded.type(variant) + " " + event.key().name() + " " + event.revision());
            }
        }
        assertFalse(expected.isEmpty(), "the test writes something for " + watch.url());
        return expected;
    }

    private static List<String> of(List<Received> received, String url) {
        return received.stream().filter(e -> e.watch().equals(url))
                .map(e -> e.type() + " " + e.name() + " " + e.revision()).toList();
    }

    private void offerLive(WatchStream stream) {
        for (ChangeEvent event : store.eventsAfter(loop.fannedOut)) {
            loop.fannedOut = event.revision();
            stream.offer(frames.of(event));
        }
    }

    private void put(ResourceType type, String namespace, String name, String app) {
        ObjectNode object = JSON.createObjectNode();
        object.put("apiVersion", "v1").put("kind", type.kind());
        ObjectNode metadata = object.putObject("metadata").put("name", name).put("namespace", namespace);
        if (app != null) {
            metadata.putObject("labels").put("app", app);
        }
        ObjectKey key = new ObjectKey(type.resource(), namespace, name);
        StoredObject current = store.get(key, store.currentRevision());
        Commits.commit(store, current == null ? Mutation.create(key, object)
                : Mutation.update(key, object, current.revision()));
    }

    private StreamedWatch watch(String url, ResourceType type, String namespace, String labels, long from) {
        return watch(url, type, namespace, labels, from, false);
    }

    private StreamedWatch watch(String url, ResourceType type, String namespace, String labels, long from,
            boolean initialEvents) {
        return new StreamedWatch(url, spec(type, namespace, labels, from, initialEvents));
    }

    private static WatchSpec spec(ResourceType type, String namespace, String labels, long from,
            boolean initialEvents) {
        return new WatchSpec(type, new KeyRange(type.resource(), namespace), Selection.parse(type, labels, null),
                initialEvents, from, true, initialEvents, null, ObjectRendering.AS_STORED, WatchGrant.ALWAYS);
    }

    private WatchStream stream(List<StreamedWatch> watches) {
        loop.fannedOut = store.currentRevision();
        return new WatchStream(watches, sink, loop, store, frames, new SmallBatches(), Duration.ofHours(1), coalesce);
    }

    private static JsonNode data(String frame) {
        String line = frame.lines().filter(l -> l.startsWith("data: ")).findFirst().orElseThrow();
        try {
            return JSON.readTree(line.substring(6));
        } catch (Exception e) {
            throw new AssertionError(frame, e);
        }
    }

    /** The events in the frames a client read (each SSE frame parsed). */
    private static List<Received> events(FakeSink sink) {
        List<Received> events = new ArrayList<>();
        for (String written : sink.frames) {
            for (String frame : written.split("\n\n")) {
                String id = null;
                String event = null;
                JsonNode data = null;
                for (String line : frame.split("\n")) {
                    if (line.startsWith("id: ")) {
                        id = line.substring(4);
                    } else if (line.startsWith("event: ")) {
                        event = line.substring(7);
                    } else if (line.startsWith("data: ")) {
                        data = data(line);
                    }
                }
                if (data != null && data.has("watch")) {
                    events.add(new Received(id, event, data.path("watch").asText(), data.path("type").asText(),
                            data.path("object"), data.path("coalesced").asBoolean()));
                }
            }
        }
        return events;
    }

    private final class HandDrivenLoop implements WatchLoop {
        private final Queue<Runnable> queued = new ArrayDeque<>();
        final List<String> endedWatches = new ArrayList<>();
        long fannedOut;

        @Override
        public long lastRevision() {
            return fannedOut;
        }

        @Override
        public void runSoon(Runnable task) {
            queued.add(task);
        }

        void runAll() {
            for (int turns = 0; turns < 1000 && !queued.isEmpty(); turns++) {
                queued.poll().run();
            }
        }

        @Override
        public void schedule(Subscriber subscriber, Subscriber.TimerKind kind, long delayMillis) {
        }

        @Override
        public void detach(Subscriber subscriber, boolean slow) {
        }

        @Override
        public void watchEnded(Subscriber subscriber, String resource) {
            endedWatches.add(resource);
        }
    }

    private record SmallBatches() implements WatchConfig {
        public Duration minDuration() { return Duration.ofMinutes(30); }
        public Duration maxDuration() { return Duration.ofMinutes(60); }
        public Duration bookmarkInterval() { return Duration.ofSeconds(60); }
        public Duration sseHeartbeat() { return Duration.ofSeconds(15); }
        public Duration sseRetry() { return Duration.ofSeconds(3); }
        public int maxBacklog() { return 1000; }
        public long maxBacklogBytes() { return Long.MAX_VALUE; }
        public int maxWatchers() { return 10; }
        public int batchSize() { return 3; }
        public long batchBytes() { return 1 << 20; }
    }
}
