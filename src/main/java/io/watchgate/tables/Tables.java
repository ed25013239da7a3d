package io.watchgate.tables;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.crd.CrdSpec;
import io.watchgate.crd.CustomResourceTypes;
import io.watchgate.status.ApiException;
import io.watchgate.store.StoredObject;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Server-side Tables ({@code meta.k8s.io} Table, what kubectl prints) and metadata-only objects
 * (PartialObjectMetadata), for clients that ask for them instead of whole objects.
 */
@ApplicationScoped
public class Tables {

    /** What a Table row carries besides its cells ({@code includeObject}). */
    public enum IncludeObject {
        NONE, METADATA, OBJECT;

        /** The {@code includeObject} query parameter: None, Metadata (the default) or Object. */
        public static IncludeObject parse(String value) {
            if (value == null || value.isEmpty()) {
                return METADATA;
            }
            return switch (value) {
                case "None" -> NONE;
                case "Metadata" -> METADATA;
                case "Object" -> OBJECT;
                default -> throw ApiException.badRequest("includeObject: Unsupported value: \"" + value
                        + "\": supported values: \"None\", \"Metadata\", \"Object\"");
            };
        }
    }

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** The built-in types' columns, by group-qualified resource; the rest have Name and Age. */
    private static final Map<String, List<Column>> BUILT_IN = builtInColumns();

    private final Clock clock;
    private final CustomResourceTypes customResources;

    Tables(Clock clock, CustomResourceTypes customResources) {
        this.clock = clock;
        this.customResources = customResources;
    }

    /**
     * A Table of {@code objects}.
     *
     * @param metaVersion  "v1" or "v1beta1" of meta.k8s.io, as the client asked
     * @param listMetadata the Table's metadata (resourceVersion, continue, remainingItemCount)
     */
    public ObjectNode table(ResourceType type, List<? extends JsonNode> objects, String metaVersion,
            IncludeObject include, ObjectNode listMetadata) {
        List<Column> columns = columnsOf(type);
        Instant now = clock.instant();
        ObjectNode table = JSON.objectNode();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/" + metaVersion);
        table.set("metadata", listMetadata);
        ArrayNode definitions = table.putArray("columnDefinitions");
        for (Column column : columns) {
            definitions.addObject()
                    .put("name", column.name())
                    .put("type", column.type())
                    .put("format", column.format())
                    .put("description", column.description())
                    .put("priority", column.priority());
        }
        ArrayNode rows = table.putArray("rows");
        for (JsonNode object : objects) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            for (Column column : columns) {
                Object cell = column.cell().apply(object, now);
                if (cell instanceof Long number) {
                    cells.add(number);
                } else if (cell instanceof Boolean flag) {
                    cells.add(flag);
                } else {
                    cells.add(String.valueOf(cell));
                }
            }
            switch (include) {
                case METADATA -> row.set("object", partialMetadata(object, metaVersion));
                case OBJECT -> row.set("object", object instanceof ObjectNode stored ? type.shown(stored) : object);
                case NONE -> {
                }
            }
        }
        return table;
    }

    /** An object's metadata as a PartialObjectMetadata. */
    public ObjectNode partialMetadata(JsonNode object, String metaVersion) {
        ObjectNode partial = JSON.objectNode();
        partial.put("kind", "PartialObjectMetadata");
        partial.put("apiVersion", "meta.k8s.io/" + metaVersion);
        partial.set("metadata", object.path("metadata"));
        return partial;
    }

    public ObjectNode partialMetadataList(List<StoredObject> objects, String metaVersion, ObjectNode listMetadata) {
        ObjectNode list = JSON.objectNode();
        list.put("kind", "PartialObjectMetadataList");
        list.put("apiVersion", "meta.k8s.io/" + metaVersion);
        list.set("metadata", listMetadata);
        ArrayNode items = list.putArray("items");
        objects.forEach(object -> items.add(partialMetadata(object.tree(), metaVersion)));
        return list;
    }

    private static Map<String, List<Column>> builtInColumns() {
        Map<String, List<Column>> columns = new HashMap<>(CoreColumns.BY_RESOURCE);
        columns.putAll(RbacColumns.BY_RESOURCE);
        columns.putAll(CoordinationColumns.BY_RESOURCE);
        columns.putAll(WorkloadColumns.BY_RESOURCE);
        return Map.copyOf(columns);
    }

    private List<Column> columnsOf(ResourceType type) {
        // no custom resource is of a built-in group (theirs are reserved), so its resource names a built-in type;
        // the columns read stored objects, so a type that shares another's storage has that type's columns, as in
        // kube-apiserver, whose printers print the one internal type of both
        List<Column> builtIn = BUILT_IN.get(type.storageResource());
        if (builtIn != null) {
            return builtIn;
        }
        if (type.group().isEmpty()) {
            return CoreColumns.DEFAULT;
        }
        List<CrdSpec.PrinterColumn> printerColumns = customResources.versionOf(type)
                .map(CrdSpec.Version::columns).orElse(List.of());
        if (printerColumns.isEmpty()) {
            return CoreColumns.DEFAULT;
        }
        // as kube-apiserver does: Name, then the definition's columns (Age only if the definition lists it)
        List<Column> columns = new java.util.ArrayList<>();
        columns.add(CoreColumns.NAME);
        for (CrdSpec.PrinterColumn printer : printerColumns) {
            columns.add(printerColumn(printer));
        }
        return columns;
    }

    private static Column printerColumn(CrdSpec.PrinterColumn printer) {
        JsonPathCell path = new JsonPathCell(printer.jsonPath());
        return new Column(printer.name(), printer.type(), printer.format(), printer.description(), printer.priority(),
                (object, now) -> {
                    JsonNode value = path.read(object);
                    if (value.isMissingNode() || value.isNull()) {
                        return "<none>";
                    }
                    return switch (printer.type()) {
                        case "date" -> CoreColumns.age(value, now);
                        case "integer" -> value.canConvertToLong() ? (Object) value.asLong() : value.asText();
                        case "boolean" -> value.isBoolean() ? (Object) value.asBoolean() : value.asText();
                        default -> value.isValueNode() ? value.asText() : value.toString();
                    };
                });
    }
}
