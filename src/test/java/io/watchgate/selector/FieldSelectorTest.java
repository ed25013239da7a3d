package io.watchgate.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FieldSelectorTest {

    private static final Map<String, String> LABELS = Map.of("metadata.name", "/metadata/name",
            "metadata.namespace", "/metadata/namespace", "status.phase", "/status/phase");

    private static ObjectNode pod() throws Exception {
        return (ObjectNode) new ObjectMapper().readTree(
                "{\"metadata\":{\"name\":\"web,1\",\"namespace\":\"prod\"},\"status\":{\"phase\":\"Running\"}}");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "metadata.namespace=prod                       | true",
            "metadata.namespace==prod                      | true",
            "metadata.namespace!=prod                      | false",
            "metadata.name=web\\,1                          | true",
            "metadata.namespace=prod,status.phase=Running  | true",
            "metadata.namespace=prod,status.phase!=Running | false",
            "status.phase=                                 | false",
    })
    void matchesFieldsByTheirLabels(String selector, boolean matches) throws Exception {
        assertEquals(matches, FieldSelector.parse(selector, LABELS).matches(pod()));
    }

    @ParameterizedTest
    @ValueSource(strings = { "spec.nodeName=x", "metadata.name", "metadata.name=a=b", "metadata.name=a\\x" })
    void rejectsUnknownLabelsAndBadSyntax(String selector) {
        assertThrows(SelectorException.class, () -> FieldSelector.parse(selector, LABELS));
    }
}
