package io.watchgate.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import org.junit.jupiter.api.Test;

/**
 * A definition's patterns are checked when it is written, as a 422 naming the field; a stored one is read without
 * them, since reading happens where the commit lock is held (serving a committed definition).
 */
class CrdSpecPatternsTest {

    private static ObjectNode definition(String pattern) throws Exception {
        return (ObjectNode) new ObjectMapper().readTree("{\"metadata\":{\"name\":\"ws.example.com\"},\"spec\":{\"group\":"
                + "\"example.com\",\"scope\":\"Namespaced\",\"names\":{\"plural\":\"ws\",\"kind\":\"W\"},\"versions\":"
                + "[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\","
                + "\"properties\":{\"spec\":{\"type\":\"string\",\"pattern\":" + new ObjectMapper().writeValueAsString(pattern)
                + "}}}}}]}}");
    }

    @Test
    void aWrittenDefinitionWithAHiddenHugePatternIsInvalidAtThatField() throws Exception {
        ApiException refused = assertThrows(ApiException.class,
                () -> CrdSpec.parse(definition("(\\Q(\\E(a{1000}){1000})")));
        assertEquals(422, refused.code());
        assertEquals("spec.versions[0].schema.openAPIV3Schema.properties[spec].pattern",
                refused.details().causes().get(0).field());
        assertTrue(refused.details().causes().get(0).message().contains("expression too large"),
                refused.details().causes().get(0).message());
    }

    @Test
    void aStoredDefinitionIsReadWithoutItsPatterns() throws Exception {
        CrdSpec spec = CrdSpec.read(definition("(a{1000}){1000}"));
        assertEquals("ws.example.com", spec.resource());
    }
}
