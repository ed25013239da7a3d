package io.watchgate.watch;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.store.StoredObject;
import java.nio.charset.StandardCharsets;

/**
 * How a watch shows the objects of its events: as stored, or in another representation such as a one-row
 * Table for kubectl. Renderings with equal keys give equal bytes, so an event is rendered once per key.
 */
public interface ObjectRendering {

    /** Objects as they are stored: their bytes from the commit, untouched. */
    ObjectRendering AS_STORED = new ObjectRendering() {
        @Override
        public String key() {
            return "";
        }

        @Override
        public byte[] render(JsonNode object) {
            throw new UnsupportedOperationException("stored objects are sent as their committed bytes");
        }
    };

    String key();

    /** The Content-Type of a watch stream whose events carry objects rendered so. */
    default String contentType() {
        return "application/json";
    }

    byte[] render(JsonNode object);

    /**
     * A bookmark or an ERROR event's Status: objects of the server's making, which watches of every rendering
     * get as they are (in the stream's encoding).
     */
    default byte[] renderControl(JsonNode object) {
        return object.toString().getBytes(StandardCharsets.UTF_8);
    }

    default byte[] bytesOf(StoredObject object) {
        return this == AS_STORED ? object.json() : render(object.tree());
    }
}
