package io.watchgate.api;

import io.watchgate.objects.ListResult;
import io.watchgate.store.StoredObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds responses from stored bytes. A list is assembled from the bytes each object was serialized to at
 * commit: only the envelope is written here.
 */
@ApplicationScoped
public class ResponseBodies {

    private final Json json;

    ResponseBodies(Json json) {
        this.json = json;
    }

    public Response object(int status, StoredObject object) {
        byte[] body = object.json() != null ? object.json() : json.write(object.tree());
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(body).build();
    }

    public Response list(ListResult result) {
        return list(result.type().listKind(), result.type().apiVersion(), result.revision(), result.items(),
                result.continueToken(), result.remaining());
    }

    public Response list(String kind, String apiVersion, long revision, List<StoredObject> items,
            String continueToken, Integer remaining) {
        int size = 128;
        for (StoredObject item : items) {
            size += (item.json() != null ? item.json().length : 256) + 1;
        }
        // kind and apiVersion come from the type registry and the token is base64url: nothing needs escaping
        StringBuilder head = new StringBuilder(160)
                .append("{\"kind\":\"").append(kind)
                .append("\",\"apiVersion\":\"").append(apiVersion)
                .append("\",\"metadata\":{\"resourceVersion\":\"").append(revision).append('"');
        if (continueToken != null) {
            head.append(",\"continue\":\"").append(continueToken).append('"');
        }
        if (remaining != null) {
            head.append(",\"remainingItemCount\":").append(remaining);
        }
        head.append("},\"items\":[");
        ByteArrayOutputStream out = new ByteArrayOutputStream(size + head.length());
        out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            StoredObject item = items.get(i);
            out.writeBytes(item.json() != null ? item.json() : json.write(item.tree()));
        }
        out.write(']');
        out.write('}');
        return Response.ok(out.toByteArray(), MediaType.APPLICATION_JSON_TYPE).build();
    }
}
