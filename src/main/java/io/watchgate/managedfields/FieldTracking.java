package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps {@code metadata.managedFields} through the writes of the objects package: the entry of a create, of an
 * update or patch (of the object or a subresource), and the merge of an apply. What clients send in managedFields
 * counts as kube-apiserver counts it: valid entries replace the stored ones, {@code [{}]} clears them (and an
 * object nobody is known to own stays untracked until it is applied to), anything else is ignored.
 */
@ApplicationScoped
public class FieldTracking {

    private final TypeStructures structures;
    private final Clock clock;

    FieldTracking(TypeStructures structures, Clock clock) {
        this.structures = structures;
        this.clock = clock;
    }

    /** Records the creator of {@code object} (as it is about to be stored) in its managedFields. */
    public void created(ResourceType type, ObjectNode object, Writer writer) {
        ObjectNode metadata = object.withObject("/metadata");
        JsonNode sent = metadata.remove("managedFields");
        Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries = ManagedFields.isReset(sent)
                ? new LinkedHashMap<>() : ManagedFields.decode(sent).orElseGet(LinkedHashMap::new);
        JsonNode empty = emptyObject(type, object);
        store(metadata, manager(type).update(empty, object, entries, key(type, writer), now()));
    }

    /** Records the writer of an update of {@code live} into {@code desired} in {@code desired}'s managedFields. */
    public void updated(ResourceType type, ObjectNode live, ObjectNode desired, Writer writer) {
        ObjectNode metadata = desired.withObject("/metadata");
        JsonNode sent = metadata.remove("managedFields");
        boolean ofObject = writer.subresource().isEmpty();
        if (ofObject && ManagedFields.isReset(sent)) {
            return; // cleared: nobody is known to own anything until the next apply
        }
        Optional<Map<ManagedFieldsEntry.Key, ManagedFieldsEntry>> given = ofObject
                ? ManagedFields.decode(sent).filter(entries -> !entries.isEmpty()) : Optional.empty();
        Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries = given
                .or(() -> ManagedFields.decode(live.path("metadata").get("managedFields")))
                .orElseGet(LinkedHashMap::new);
        if (entries.isEmpty()) {
            return; // stored before tracking, or cleared: an update does not start it
        }
        store(metadata, manager(type).update(live, desired, entries, key(type, writer), now()));
    }

    /**
     * Merges {@code config} into {@code live} for its manager.
     *
     * @param live null when the apply creates the object
     * @return the object to store, its managedFields set
     * @throws ApplyConflict  when fields others own would change, unless forced
     * @throws StructureError when the configuration does not fit its type's schema
     */
    public ObjectNode applied(ResourceType type, ObjectNode live, ObjectNode config, Writer writer, boolean force) {
        Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries = live == null ? new LinkedHashMap<>()
                : ManagedFields.decode(live.path("metadata").get("managedFields")).orElseGet(LinkedHashMap::new);
        ObjectNode base = live != null ? live : minimalObject(type);
        FieldManager manager = manager(type);
        ManagedFieldsEntry.Key applier = ManagedFieldsEntry.Key.apply(writer.manager(), writer.subresource());
        boolean tracked = live == null || !entries.isEmpty();
        FieldManager.Applied applied;
        try {
            applied = manager.apply(base, config, entries, tracked, applier, type.apiVersion(), force, now());
        } catch (ApplyConflict conflict) {
            if (live == null || !writer.manager().equals(LastApplied.MANAGER)) {
                throw conflict;
            }
            // kubectl moving from client-side apply: its own earlier fields are no conflict
            var remaining = LastApplied.remaining(conflict, manager, live, type.apiVersion());
            if (remaining.isPresent()) {
                throw remaining.get();
            }
            applied = manager.apply(base, config, entries, tracked, applier, type.apiVersion(), true, now());
        }
        if (writer.manager().equals(LastApplied.MANAGER)) {
            LastApplied.keepCurrent(applied.object(), config);
        }
        store(applied.object().withObject("/metadata"), applied.entries());
        return applied.object();
    }

    private FieldManager manager(ResourceType type) {
        return new FieldManager(structures.of(type));
    }

    private static ManagedFieldsEntry.Key key(ResourceType type, Writer writer) {
        return ManagedFieldsEntry.Key.update(writer.manager(), type.apiVersion(), writer.subresource());
    }

    private static void store(ObjectNode metadata, Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries) {
        if (entries.isEmpty()) {
            metadata.remove("managedFields");
        } else {
            metadata.set("managedFields", ManagedFields.encode(entries.values()));
        }
    }

    /**
     * What a create is compared with: for a built-in type, as kube-apiserver's empty Go object, whose metadata and
     * spec exist (so a create owns what is in them, not them); for a custom resource, nothing but its type.
     */
    private static ObjectNode emptyObject(ResourceType type, ObjectNode created) {
        ObjectNode empty = minimalObject(type);
        if (type.strategicMergePatch() && created.path("spec").isObject()) {
            empty.putObject("spec");
        }
        return empty;
    }

    private static ObjectNode minimalObject(ResourceType type) {
        ObjectNode empty = JsonNodeFactory.instance.objectNode();
        empty.put("apiVersion", type.apiVersion());
        empty.put("kind", type.kind());
        empty.putObject("metadata");
        return empty;
    }

    private String now() {
        return DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
    }
}
