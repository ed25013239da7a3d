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
 * @param scope     the list it belongs to (resource and namespace); a token is only good for that list
 * @param remaining null when not counted
 */
public record ContinueToken(String scope, long revision, String namespace, String name, Integer remaining) {

    public static final long LATEST = -1;
    private static final ObjectMapper JSON = new ObjectMapper();

    public String encode() {
        ObjectNode node = JSON.createObjectNode();
        node.put("v", "meta.k8s.io/v1");
        node.put("scope", scope);
        node.put("rv", revision);
        node.put("start", namespace + "/" + name);
        if (remaining != null) {
            node.put("remaining", remaining);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The scope of a list of {@code resource} in {@code namespace} (null for every namespace). */
    public static String scopeOf(String resource, String namespace) {
        return resource + "/" + (namespace == null ? "" : namespace);
    }

    /** Decodes a token, which must belong to the list of {@code scope} (400 otherwise). */
    public static ContinueToken decode(String token, String scope) {
        ContinueToken decoded = decode(token);
        if (!decoded.scope().equals(scope)) {
            throw ApiException.badRequest("continue key is not valid: the token was issued for another list");
        }
        return decoded;
    }

    private static ContinueToken decode(String token) {
        try {
            JsonNode node = JSON.readTree(Base64.getUrlDecoder().decode(token));
            String start = node.path("start").asText("");
            int slash = start.indexOf('/');
            if (!node.path("v").asText().equals("meta.k8s.io/v1") || !node.path("rv").canConvertToLong()
                    || (node.path("rv").asLong() < 0 && node.path("rv").asLong() != LATEST) || slash < 0) {
                throw invalid();
            }
            JsonNode remaining = node.path("remaining");
            if (!remaining.isMissingNode() && (!remaining.canConvertToInt() || remaining.asInt() < 0)) {
                throw invalid();
            }
            return new ContinueToken(node.path("scope").asText(""), node.path("rv").asLong(),
                    start.substring(0, slash), start.substring(slash + 1),
                    remaining.isMissingNode() ? null : Integer.valueOf(remaining.asInt()));
        } catch (IllegalArgumentException | IOException e) {
            throw invalid();
        }
    }

    private static ApiException invalid() {
        return ApiException.badRequest("continue key is not valid: the continue token is malformed");
    }
}
