package io.watchgate.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import io.watchgate.status.ApiException;
import io.watchgate.validation.JsonShape;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;

/**
 * Reads request bodies into JSON trees that keep what the client sent (numbers exactly as written, decimals
 * included), and writes trees back out.
 */
@ApplicationScoped
public class Json {

    private final ObjectMapper mapper;
    private final ObjectReader reader;

    Json(ObjectMapper mapper) {
        this.mapper = mapper;
        // field names are not interned: a body may hold a quarter of a million distinct ones, each of which would
        // go through the JVM's string table (a parse of seconds instead of a fraction of one)
        JsonFactory bodies = mapper.getFactory().rebuild().disable(JsonFactory.Feature.INTERN_FIELD_NAMES).build();
        this.reader = mapper.copyWith(bodies).reader()
                .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .without(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);
    }

    /** Parses a request body; anything that is not one JSON value is 400 BadRequest. */
    public JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the request body is empty; a JSON object is required");
        }
        try {
            JsonNode node = reader.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw ApiException.badRequest("the request body is empty; a JSON object is required");
            }
            JsonShape.requireStorable(node);
            return node;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw ApiException.badRequest("the request body is not valid JSON: " + e.getOriginalMessage() + where);
        } catch (IOException e) {
            throw ApiException.badRequest("the request body could not be read: " + e.getMessage());
        } catch (NumberFormatException | ArithmeticException e) {
            throw ApiException.badRequest("the request body holds a number that cannot be read: " + e.getMessage());
        }
    }

    public byte[] write(JsonNode node) {
        try {
            return mapper.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize", e);
        }
    }
}
