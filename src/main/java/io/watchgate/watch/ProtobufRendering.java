package io.watchgate.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.types.ResourceType;

/**
 * Each event's object in Kubernetes' protobuf envelope, for {@link WireFormat#PROTOBUF_STREAM} watches, at the
 * watched type's version (events.k8s.io/v1 and core v1 Events are one stored object, encoded as two messages).
 */
public final class ProtobufRendering implements ObjectRendering {

    private final ProtobufObjects protobuf;
    private final ResourceType type;
    private final String key;

    public ProtobufRendering(ProtobufObjects protobuf, ResourceType type) {
        this.protobuf = protobuf;
        this.type = type;
        this.key = "protobuf/" + type.apiVersion();
    }

    @Override
    public String key() {
        return key;
    }

    @Override
    public String contentType() {
        return ProtobufObjects.WATCH_MEDIA_TYPE;
    }

    @Override
    public byte[] render(JsonNode object) {
        return protobuf.encode(object instanceof ObjectNode stored ? type.shown(stored) : object);
    }

    @Override
    public byte[] renderControl(JsonNode object) {
        return protobuf.encode(object);
    }
}
