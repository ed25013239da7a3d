package io.watchgate.managedfields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who owns which fields of one type's objects, kept through every write as kube-apiserver's field manager keeps it
 * (structured-merge-diff's {@code Updater}): an update makes its writer own what it added or changed and takes that
 * from everyone else; an apply merges a configuration in, makes its manager own exactly what it applied, prunes
 * what that manager applied before, owns alone and no longer applies, and refuses (or with force, takes) fields
 * others own with other values.
 */
public final class FieldManager {

    /** The fields no entry ever owns: the server's and the object's identity. */
    private static final FieldSet NEVER_OWNED = FieldSet.empty();
    private static final FieldSet NEVER_OWNED_BELOW = FieldSet.empty();

    static {
        NEVER_OWNED.insert(List.of(PathElement.field("apiVersion")));
        NEVER_OWNED.insert(List.of(PathElement.field("kind")));
        NEVER_OWNED.insert(List.of(PathElement.field("metadata")));
        for (String name : List.of("name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName",
                "generation", "managedFields", "resourceVersion")) {
            NEVER_OWNED.insert(List.of(PathElement.field("metadata"), PathElement.field(name)));
        }
        NEVER_OWNED_BELOW.insert(List.of(PathElement.field("metadata"), PathElement.field("managedFields")));
    }

    /** What an update first attributes to whoever applies to an object nobody is known to own yet. */
    public static final String BEFORE_FIRST_APPLY = "before-first-apply";

    private final Structure structure;

    public FieldManager(Structure structure) {
        this.structure = structure;
    }

    /** The outcome of an apply: the merged object (the caller's) and the entries after it. */
    public record Applied(ObjectNode object, Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries) {
    }

    /**
     * The entries after an update (a create, a PUT, a patch) of {@code before} into {@code after}.
     *
     * @param before the object as stored, or for a create the empty object of its type
     * @param now    the time stamped on the writer's entry if it gained fields
     */
    public Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> update(JsonNode before, JsonNode after,
            Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries, ManagedFieldsEntry.Key writer, String now) {
        Comparison change = tracked(Comparison.of(structure, before, after));
        // what the writer added or changed: never also removed, so all of it is gained
        FieldSet taken = change.takeAddedOrModified();
        Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> updated = new LinkedHashMap<>();
        entries.forEach((key, entry) -> {
            FieldSet kept = entry.fields().difference(taken);
            kept.removeAll(change.removed());
            updated.put(key, entry.withFields(kept));
        });
        if (!taken.isEmpty()) {
            ManagedFieldsEntry previous = updated.get(writer);
            FieldSet owned = taken;
            if (previous != null) {
                owned = previous.fields();
                owned.addAll(taken); // the copy made above: this update's own
            }
            updated.put(writer, new ManagedFieldsEntry(writer.manager(), writer.operation(), writer.apiVersion(), now,
                    owned, writer.subresource()));
        }
        return finished(updated);
    }

    /**
     * Applies {@code config} to {@code live} for the manager of {@code applier}.
     *
     * @param live   the object as stored, or for a create the empty object of its type
     * @param tracked whether {@code entries} are what is known of {@code live}: when an object nobody is known to
     *                own is applied to for the first time, what it holds is first attributed to
     *                {@link #BEFORE_FIRST_APPLY}
     * @throws ApplyConflict   when the apply would change fields others own, unless forced
     * @throws StructureError  when the configuration does not fit the schema
     */
    public Applied apply(ObjectNode live, ObjectNode config, Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries,
            boolean tracked, ManagedFieldsEntry.Key applier, String apiVersion, boolean force, String now) {
        FieldSet applied = tracked(FieldSets.of(structure, config, true));
        Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> owners = new LinkedHashMap<>(entries);
        if (!tracked && owners.isEmpty()) {
            ManagedFieldsEntry.Key before = ManagedFieldsEntry.Key.update(BEFORE_FIRST_APPLY, apiVersion, "");
            owners.put(before, new ManagedFieldsEntry(BEFORE_FIRST_APPLY, ManagedFieldsEntry.Operation.Update,
                    apiVersion, now, tracked(FieldSets.of(structure, live, false)), ""));
        }
        ManagedFieldsEntry last = owners.get(applier);
        owners.put(applier, new ManagedFieldsEntry(applier.manager(), ManagedFieldsEntry.Operation.Apply, apiVersion,
                last == null ? null : last.time(), applied, applier.subresource()));
        JsonNode merged = Merging.merge(structure, live, config);
        if (last != null && !last.fields().isEmpty()) {
            merged = pruned(merged, owners, last.fields());
        }
        Comparison change = tracked(Comparison.of(structure, live, merged));
        FieldSet taken = change.addedOrModified();
        Map<ManagedFieldsEntry.Key, FieldSet> conflicts = new LinkedHashMap<>();
        owners.forEach((key, entry) -> {
            FieldSet conflicting = key.equals(applier) ? FieldSet.empty() : entry.fields().intersection(taken);
            if (!conflicting.isEmpty()) {
                conflicts.put(key, conflicting);
            }
        });
        if (!conflicts.isEmpty() && !force) {
            throw new ApplyConflict(conflicts, owners);
        }
        Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> after = new LinkedHashMap<>();
        owners.forEach((key, entry) -> after.put(key, key.equals(applier) ? entry : entry.withFields(entry.fields()
                .difference(conflicts.getOrDefault(key, FieldSet.empty())).difference(change.removed()))));
        ManagedFieldsEntry mine = after.get(applier);
        if (!change.isEmpty() || mine.time() == null) {
            after.put(applier, mine.withTime(now));
        }
        return new Applied((ObjectNode) merged, finished(after));
    }

    /** The fields of {@code earlier} that still hold the same value in {@code now}. */
    FieldSet unchangedSince(JsonNode earlier, JsonNode now) {
        Comparison change = Comparison.of(structure, earlier, now);
        return FieldSets.of(structure, earlier, false).difference(change.modified()).difference(change.removed());
    }

    /**
     * {@code merged} without the fields the applier owned before ({@code last}) that no entry owns now, as
     * structured-merge-diff's prune: the removal, the owned nodes put back, then only what {@code last} named gone.
     */
    private JsonNode pruned(JsonNode merged, Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> owners, FieldSet last) {
        FieldSet lastNamed = FieldSets.namedFieldsAsMembers(structure, last);
        FieldSet owned = FieldSet.empty();
        for (ManagedFieldsEntry entry : owners.values()) {
            owned.addAll(entry.fields());
        }
        owned = FieldSets.namedFieldsAsMembers(structure, owned);
        FieldSet mergedSet = named(merged);
        JsonNode withoutLast = Removal.without(structure, merged, lastNamed);
        JsonNode ownedBack = Removal.without(structure, merged,
                mergedSet.difference(named(withoutLast).union(owned)));
        return Removal.without(structure, merged, mergedSet.difference(named(ownedBack)).intersection(lastNamed));
    }

    private FieldSet named(JsonNode object) {
        return FieldSets.namedFieldsAsMembers(structure, FieldSets.of(structure, object, false));
    }

    /** {@code fields}, built by the caller, without what no entry owns. */
    private static FieldSet tracked(FieldSet fields) {
        fields.removeAll(NEVER_OWNED);
        fields.removeBelow(NEVER_OWNED_BELOW);
        return fields;
    }

    private static Comparison tracked(Comparison change) {
        return change.strip(NEVER_OWNED, NEVER_OWNED_BELOW);
    }

    private static Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> finished(
            Map<ManagedFieldsEntry.Key, ManagedFieldsEntry> entries) {
        entries.values().removeIf(entry -> entry.fields().isEmpty());
        ManagedFields.cap(entries);
        return entries;
    }
}
