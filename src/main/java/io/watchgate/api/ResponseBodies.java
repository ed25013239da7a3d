package io.watchgate.api;

import io.watchgate.objects.ListResult;
import io.watchgate.store.StoredObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayOutputStream;
import io.watchgate.status.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds responses from stored bytes. A list is assembled from the bytes each object was serialized to at
 * commit: only the envelope is written here.
 */
@ApplicationScoped
public class ResponseBodies {

    private final Json json;
    private final ApiConfig config;

    ResponseBodies(Json json, ApiConfig config) {
        this.json = json;
        this.config = config;
    }

    /**
     * Reads a request body, but never more than the configured limit: a longer one (sent without
     * Content-Length, so not refused up front by {@link BodyLimit}) is 413 RequestEntityTooLarge.
     */
    public byte[] read(InputStream body) {
        if (body == null) {
            return new byte[0];
        }
        try {
            byte[] bytes = body.readNBytes(config.maxBodyBytes() + 1);
            if (bytes.length > config.maxBodyBytes()) {
                throw new ApiException(413, "RequestEntityTooLarge", "the request body is larger than the limit of "
                        + config.maxBodyBytes() + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw ApiException.badRequest("the request body could not be read: " + e.getMessage());
        }
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
