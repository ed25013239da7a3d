package io.watchgate.watch;

import static io.watchgate.watch.EncodedEvent.Variant.ADDED;
import static io.watchgate.watch.EncodedEvent.Variant.AS_COMMITTED;
import static io.watchgate.watch.EncodedEvent.Variant.DELETED_PREVIOUS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.objects.Selection;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.KeyRange;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import org.junit.jupiter.api.Test;

/**
 * What a watch is sent of each change, as kube-apiserver's cacher decides it: a selector's entries arrive as
 * ADDED, its exits as DELETED in the state the watch last saw, and changes outside it are not sent.
 */
class EventFilterTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ResourceType configMaps = new ResourceTypes().find("", "v1", "configmaps").orElseThrow();
    private final KeyRange demo = KeyRange.inNamespace("configmaps", "demo");
    private final Selection appHello = Selection.parse(configMaps, "app=hello", null);
    private final Selection everything = Selection.parse(configMaps, null, null);

    @Test
    void aWatchWithoutSelectorsGetsEveryEventOfItsRangeAsCommitted() {
        assertEquals(AS_COMMITTED, EventFilter.variantFor(added("a", "app=other"), demo, everything));
        assertEquals(AS_COMMITTED, EventFilter.variantFor(modified("a", "app=x", "app=y"), demo, everything));
        assertEquals(AS_COMMITTED, EventFilter.variantFor(deleted("a", "app=x"), demo, everything));
    }

    @Test
    void eventsOutsideTheWatchedRangeAreNeverSent() {
        ChangeEvent elsewhere = event(EventType.ADDED, 2, "other", "a", "app=hello", null);
        assertNull(EventFilter.variantFor(elsewhere, demo, everything));
        assertNull(EventFilter.variantFor(elsewhere, demo, appHello));
        assertEquals(AS_COMMITTED, EventFilter.variantFor(elsewhere, KeyRange.allOf("configmaps"), appHello));
        assertNull(EventFilter.variantFor(added("a", "app=hello"), KeyRange.allOf("secrets"), everything));
    }

    @Test
    void anObjectCreatedMatchingIsAddedAndOneCreatedOutsideIsNotSent() {
        assertEquals(AS_COMMITTED, EventFilter.variantFor(added("a", "app=hello"), demo, appHello));
        assertNull(EventFilter.variantFor(added("a", "app=other"), demo, appHello));
    }

    @Test
    void anObjectThatStaysInsideIsModified() {
        assertEquals(AS_COMMITTED, EventFilter.variantFor(modified("a", "app=hello", "app=hello,v=2"), demo, appHello));
    }

    @Test
    void anObjectThatEntersTheSelectorArrivesAsAdded() {
        assertEquals(ADDED, EventFilter.variantFor(modified("a", "app=other", "app=hello"), demo, appHello));
    }

    @Test
    void anObjectThatLeavesTheSelectorGoesAsDeletedInItsPreviousState() {
        assertEquals(DELETED_PREVIOUS, EventFilter.variantFor(modified("a", "app=hello", "app=other"), demo, appHello));
    }

    @Test
    void changesThatStayOutsideAreNotSent() {
        assertNull(EventFilter.variantFor(modified("a", "app=x", "app=y"), demo, appHello));
    }

    @Test
    void aDeleteIsSentOnlyToWatchesTheObjectMatchedBeforeIt() {
        assertEquals(AS_COMMITTED, EventFilter.variantFor(deleted("a", "app=hello"), demo, appHello));
        assertNull(EventFilter.variantFor(deleted("a", "app=other"), demo, appHello));
    }

    @Test
    void fieldSelectorsFollowTheSameRules() {
        Selection named = Selection.parse(configMaps, null, "metadata.name=a");
        assertEquals(AS_COMMITTED, EventFilter.variantFor(added("a", ""), demo, named));
        assertNull(EventFilter.variantFor(added("b", ""), demo, named));
    }

    private ChangeEvent added(String name, String labels) {
        return event(EventType.ADDED, 2, "demo", name, labels, null);
    }

    private ChangeEvent modified(String name, String before, String after) {
        return event(EventType.MODIFIED, 3, "demo", name, after, object("demo", name, before, 2));
    }

    /** A delete's object is the last state, stamped with the delete's revision; its previous is that state. */
    private ChangeEvent deleted(String name, String labels) {
        return event(EventType.DELETED, 3, "demo", name, labels, object("demo", name, labels, 2));
    }

    private ChangeEvent event(EventType type, long revision, String namespace, String name, String labels,
            StoredObject previous) {
        return new ChangeEvent(revision, type, object(namespace, name, labels, revision), previous, 0);
    }

    private static StoredObject object(String namespace, String name, String labels, long revision) {
        ObjectNode tree = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        ObjectNode metadata = tree.putObject("metadata").put("name", name).put("namespace", namespace)
                .put("resourceVersion", Long.toString(revision));
        ObjectNode labelMap = metadata.putObject("labels");
        for (String pair : labels.split(",")) {
            if (!pair.isEmpty()) {
                labelMap.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
            }
        }
        return new StoredObject(new ObjectKey("configmaps", namespace, name), tree, tree.toString().getBytes(),
                revision);
    }
}
