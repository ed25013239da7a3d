package io.watchgate.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.objects.ListResult;
import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.store.StoredObject;
import io.watchgate.tables.Tables;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds responses from stored bytes. A list is assembled from the bytes each object was serialized to at
 * commit: only the envelope is written here.
 */
@ApplicationScoped
public class ResponseBodies {

    /** Lists of this many bytes and more are streamed; smaller ones go whole, with a Content-Length. */
    static final long STREAM_LISTS_FROM_BYTES = 1 << 20;
    private static final int STREAM_CHUNK_BYTES = 256 * 1024;

    private final Json json;
    private final Tables tables;
    private final ProtobufObjects protobuf;
    private final SendDeadline deadline;

    ResponseBodies(Json json, Tables tables, ProtobufObjects protobuf, SendDeadline deadline) {
        this.json = json;
        this.tables = tables;
        this.protobuf = protobuf;
        this.deadline = deadline;
    }

    /** What a write returns: the object, in JSON or protobuf. */
    Response written(ResourceType type, int status, StoredObject object, Representation representation) {
        return representation.form() == Representation.Form.PROTOBUF
                ? Response.status(status).type(ProtobufObjects.MEDIA_TYPE).entity(protobuf.encode(type.shown(object.tree()))).build()
                : object(type, status, object);
    }

    /** One object as a read asked for it: itself, a one-row Table, or its metadata. */
    Response read(ResourceType type, StoredObject object, Representation representation,
            Tables.IncludeObject include) {
        return switch (representation.form()) {
            case OBJECT -> object(type, 200, object);
            case PROTOBUF -> written(type, 200, object, representation);
            case TABLE -> {
                ObjectNode metadata = JsonNodeFactory.instance.objectNode()
                        .put("resourceVersion", Long.toString(object.revision()));
                yield Response.ok(tables.table(type, List.of(object.tree()), representation.metaVersion(), include,
                        metadata)
                        .toString()).type(representation.contentType()).build();
            }
            case METADATA -> Response.ok(tables.partialMetadata(object.tree(), representation.metaVersion())
                    .toString()).type(representation.contentType()).build();
            case YAML -> Response.ok(json.writeYaml(type.shown(object.tree()))).type(representation.contentType())
                    .build();
        };
    }

    /** A list as a read asked for it: the list, a Table, or a PartialObjectMetadataList. */
    Response list(ListResult result, Representation representation, Tables.IncludeObject include) {
        if (representation.form() == Representation.Form.OBJECT) {
            return list(result);
        }
        ObjectNode metadata = JsonNodeFactory.instance.objectNode()
                .put("resourceVersion", Long.toString(result.revision()));
        if (result.continueToken() != null) {
            metadata.put("continue", result.continueToken());
        }
        if (result.remaining() != null) {
            metadata.put("remainingItemCount", result.remaining());
        }
        if (representation.form() == Representation.Form.PROTOBUF) {
            return Response.ok(protobuf.encodeList(result.type(), metadata,
                    result.items().stream().map(item -> result.type().shown(item.tree())).toList()))
                    .type(ProtobufObjects.MEDIA_TYPE).build();
        }
        ObjectNode body = representation.form() == Representation.Form.TABLE
                ? tables.table(result.type(), result.items().stream().map(StoredObject::tree).toList(),
                        representation.metaVersion(), include, metadata)
                : tables.partialMetadataList(result.items(), representation.metaVersion(), metadata);
        return Response.ok(body.toString()).type(representation.listContentType()).build();
    }

    private Response object(ResourceType type, int status, StoredObject object) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(jsonOf(type, object)).build();
    }

    /** An object's JSON as its type's version shows it: its stored bytes, unless it is at another version. */
    private byte[] jsonOf(ResourceType type, StoredObject object) {
        ObjectNode shown = type.shown(object.tree());
        return shown == object.tree() && object.json() != null ? object.json() : json.write(shown);
    }

    private Response list(ListResult result) {
        ResourceType type = result.type();
        List<StoredObject> items = result.items();
        long size = 2;
        for (StoredObject item : items) {
            size += (item.json() != null ? item.json().length : 256) + 1;
        }
        byte[] head = listHead(result).getBytes(StandardCharsets.UTF_8);
        if (size < STREAM_LISTS_FROM_BYTES) {
            ByteArrayOutputStream out = new ByteArrayOutputStream((int) size + head.length);
            try {
                writeList(out, head, type, items);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // not from memory
            }
            return Response.ok(out.toByteArray(), MediaType.APPLICATION_JSON_TYPE).build();
        }
        // written as it is sent, so a large list holds one chunk of its body at a time (and the snapshot it reads);
        // the writing thread waits for the client, but not past the deadline
        deadline.arm();
        StreamingOutput body = out -> {
            BufferedOutputStream chunks = new BufferedOutputStream(out, STREAM_CHUNK_BYTES);
            try {
                writeList(chunks, head, type, items);
                chunks.flush();
            } catch (IOException gone) {
                // the bytes come from memory: only the connection fails, closed by its client or at the deadline
                throw new NotSent(type.listKind(), gone);
            }
        };
        return Response.ok(body, MediaType.APPLICATION_JSON_TYPE).build();
    }

    private static String listHead(ListResult result) {
        // kind and apiVersion come from the type registry and the token is base64url: nothing needs escaping
        StringBuilder head = new StringBuilder(160)
                .append("{\"kind\":\"").append(result.type().listKind())
                .append("\",\"apiVersion\":\"").append(result.type().apiVersion())
                .append("\",\"metadata\":{\"resourceVersion\":\"").append(result.revision()).append('"');
        if (result.continueToken() != null) {
            head.append(",\"continue\":\"").append(result.continueToken()).append('"');
        }
        if (result.remaining() != null) {
            head.append(",\"remainingItemCount\":").append(result.remaining());
        }
        return head.append("},\"items\":[").toString();
    }

    private void writeList(OutputStream out, byte[] head, ResourceType type, List<StoredObject> items)
            throws IOException {
        out.write(head);
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.write(jsonOf(type, items.get(i)));
        }
        out.write(']');
        out.write('}');
    }

    /**
     * A streamed body whose connection failed under it. Thrown on, not swallowed: Quarkus then drops the connection
     * rather than end the chunked body as if it were whole.
     */
    static final class NotSent extends RuntimeException {
        NotSent(String what, IOException cause) {
            super("a streamed " + what + " was not sent whole", cause);
        }
    }
}
