package io.watchgate.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.tables.Tables;
import io.watchgate.types.ResourceType;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Each event's object as a one-row Table, what {@code kubectl get --watch} asks for. */
public final class TableRendering implements ObjectRendering {

    private final Tables tables;
    private final ResourceType type;
    private final String metaVersion;
    private final Tables.IncludeObject include;
    private final String key;

    public TableRendering(Tables tables, ResourceType type, String metaVersion, Tables.IncludeObject include) {
        this.tables = tables;
        this.type = type;
        this.metaVersion = metaVersion;
        this.include = include;
        // the columns belong to the type's version: watchers of two versions of one resource share events
        this.key = "table/" + type.apiVersion() + "/" + metaVersion + "/" + include;
    }

    @Override
    public String key() {
        return key; // asked per event and watcher: made once
    }

    @Override
    public String contentType() {
        return "application/json;as=Table;v=" + metaVersion + ";g=meta.k8s.io";
    }

    @Override
    public byte[] render(JsonNode object) {
        ObjectNode metadata = JsonNodeFactory.instance.objectNode()
                .put("resourceVersion", object.path("metadata").path("resourceVersion").asText());
        return tables.table(type, List.of(object), metaVersion, include, metadata).toString()
                .getBytes(StandardCharsets.UTF_8);
    }
}
