package io.watchgate.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque {@code continue} token of a paginated list: the snapshot revision every page reads, the last key
 * served and, for unfiltered lists, how many objects remain after it. Revision {@link #LATEST} marks a token
 * that continues from the newest state (handed out when a token's snapshot was compacted).
 *
 * @param remaining null when not counted
 */
public record ContinueToken(long revision, String namespace, String name, Integer remaining) {

    public static final long LATEST = -1;
    private static final ObjectMapper JSON = new ObjectMapper();

    public String encode() {
        ObjectNode node = JSON.createObjectNode();
        node.put("v", "meta.k8s.io/v1");
        node.put("rv", revision);
        node.put("start", namespace + "/" + name);
        if (remaining != null) {
            node.put("remaining", remaining);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
    }

    public static ContinueToken decode(String token) {
        try {
            JsonNode node = JSON.readTree(Base64.getUrlDecoder().decode(token));
            String start = node.path("start").asText("");
            int slash = start.indexOf('/');
            if (!node.path("v").asText().equals("meta.k8s.io/v1") || !node.path("rv").canConvertToLong()
                    || (node.path("rv").asLong() < 0 && node.path("rv").asLong() != LATEST) || slash < 0) {
                throw invalid();
            }
            JsonNode remaining = node.path("remaining");
            return new ContinueToken(node.path("rv").asLong(), start.substring(0, slash), start.substring(slash + 1),
                    remaining.canConvertToInt() ? Integer.valueOf(remaining.asInt()) : null);
        } catch (IllegalArgumentException | IOException e) {
            throw invalid();
        }
    }

    private static ApiException invalid() {
        return ApiException.badRequest("continue key is not valid: the continue token is malformed");
    }
}
