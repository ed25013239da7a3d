package io.watchgate.watch;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.protobuf.ProtobufObjects;

/** Each event's object in Kubernetes' protobuf envelope, for {@link WireFormat#PROTOBUF_STREAM} watches. */
public final class ProtobufRendering implements ObjectRendering {

    private final ProtobufObjects protobuf;

    public ProtobufRendering(ProtobufObjects protobuf) {
        this.protobuf = protobuf;
    }

    @Override
    public String key() {
        return "protobuf";
    }

    @Override
    public String contentType() {
        return ProtobufObjects.WATCH_MEDIA_TYPE;
    }

    @Override
    public byte[] render(JsonNode object) {
        return protobuf.encode(object);
    }

    @Override
    public byte[] renderControl(JsonNode object) {
        return protobuf.encode(object);
    }
}
