package io.watchgate.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.watchgate.status.ApiException;
import io.watchgate.validation.JsonShape;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads request bodies, JSON or YAML, into JSON trees that keep what the client sent (numbers exactly as written,
 * decimals included), and writes trees back out.
 */
@ApplicationScoped
public class Json {

    private final ObjectMapper mapper;
    private final ObjectReader reader;
    private final ObjectReader yamlReader;
    /** The same readers, failing at the first key a mapping repeats (what fieldValidation reports for an apply). */
    private final ObjectReader strictReader;
    private final ObjectReader strictYamlReader;
    private final ObjectWriter yamlWriter;

    Json(ObjectMapper mapper) {
        this.mapper = mapper;
        // field names are not interned: a body may hold a quarter of a million distinct ones, each of which would
        // go through the JVM's string table (a parse of seconds instead of a fraction of one)
        JsonFactory bodies = mapper.getFactory().rebuild().disable(JsonFactory.Feature.INTERN_FIELD_NAMES).build();
        this.reader = mapper.copyWith(bodies).reader()
                .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .without(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);
        // a body is at most a few MiB: SnakeYAML's own cap on a document's size must not be what refuses it. An
        // alias is read as the text of its anchor's name (Jackson does not expand them), so a body cannot multiply
        LoaderOptions yaml = new LoaderOptions();
        yaml.setCodePointLimit(Integer.MAX_VALUE);
        // an empty plain scalar ("data:") is null, as Go's YAML reads it; a quoted one ("") stays a string
        this.yamlReader = new ObjectMapper(YAMLFactory.builder().loaderOptions(yaml)
                .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL).build()).reader()
                .with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .without(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);
        this.strictReader = reader.with(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.strictYamlReader = yamlReader.with(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
        this.yamlWriter = new ObjectMapper(YAMLFactory.builder()
                .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                .build()).writer();
    }

    /** Parses a request body; anything that is not one JSON value is 400 BadRequest. */
    public JsonNode parse(byte[] body) {
        return parseJson(body, reader);
    }

    /** A body read once, and the first key one of its mappings repeats, or null. */
    public record Parsed(JsonNode tree, String repeatedKey) {
    }

    /**
     * Parses a JSON or YAML body as {@link #parse} and {@link #parseYaml} do, noting the first key a mapping repeats
     * (Jackson keeps the last): in one pass, but for a body that does repeat one, which is read again.
     */
    public Parsed parseNotingRepeatedKey(byte[] body, boolean yaml) {
        try {
            return new Parsed(yaml ? parseYaml(body, strictYamlReader) : parseJson(body, strictReader), null);
        } catch (RepeatedKey repeated) {
            return new Parsed(yaml ? parseYaml(body) : parse(body), repeated.getMessage());
        }
    }

    private static final class RepeatedKey extends RuntimeException {
        RepeatedKey(String problem) {
            super(problem, null, false, false);
        }
    }

    /** Thrown by the strict readers only: the others keep the last value of a repeated key. */
    private static void requireNoRepeatedKey(JsonProcessingException e) {
        String problem = e.getOriginalMessage();
        if (problem != null && problem.startsWith("Duplicate field")) {
            throw new RepeatedKey(problem);
        }
    }

    private JsonNode parseJson(byte[] body, ObjectReader with) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the request body is empty; a JSON object is required");
        }
        try {
            JsonNode node = with.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw ApiException.badRequest("the request body is empty; a JSON object is required");
            }
            JsonShape.requireStorable(node);
            return node;
        } catch (JsonProcessingException e) {
            requireNoRepeatedKey(e);
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw ApiException.badRequest("the request body is not valid JSON: " + e.getOriginalMessage() + where);
        } catch (IOException e) {
            throw ApiException.badRequest("the request body could not be read: " + e.getMessage());
        } catch (NumberFormatException | ArithmeticException e) {
            throw ApiException.badRequest("the request body holds a number that cannot be read: " + e.getMessage());
        }
    }

    /**
     * Parses a YAML request body (its first document), as kube-apiserver reads {@code application/yaml}: 400
     * BadRequest for anything else. Slower than JSON by several times: callers parse it off the event loop.
     */
    public JsonNode parseYaml(byte[] body) {
        return parseYaml(body, yamlReader);
    }

    private JsonNode parseYaml(byte[] body, ObjectReader with) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the request body is empty; a YAML object is required");
        }
        try {
            JsonNode node = with.readTree(body);
            if (node == null || node.isMissingNode() || node.isNull()) {
                throw ApiException.badRequest("the request body is empty; a YAML object is required");
            }
            JsonShape.requireStorable(node);
            return node;
        } catch (JsonProcessingException e) {
            requireNoRepeatedKey(e);
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            String problem = e.getOriginalMessage();
            throw ApiException.badRequest("the request body is not valid YAML: "
                    + (problem.length() > 500 ? problem.substring(0, 500) + "..." : problem) + where);
        } catch (IOException | RuntimeException e) {
            // SnakeYAML reports its limits (nesting depth among them) as its own unchecked exceptions
            if (e instanceof ApiException || e instanceof RepeatedKey) {
                throw (RuntimeException) e;
            }
            String problem = String.valueOf(e.getMessage());
            throw ApiException.badRequest("the request body could not be read as YAML: "
                    + (problem.length() > 500 ? problem.substring(0, 500) + "..." : problem));
        }
    }

    /**
     * An object as YAML, for people: no document marker, every string in double quotes. Jackson's fewer quotes
     * would leave some strings bare that YAML reads as numbers ({@code 1e3}, {@code 0x1F}).
     */
    public byte[] writeYaml(JsonNode node) {
        try {
            return yamlWriter.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree failed to serialize as YAML", e);
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
