package io.watchgate.openapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The served definitions file is the part of fabric8's generated OpenAPI document (a test dependency) that watchgate
 * serves: the definitions of the built-in groups' v1 packages and of apimachinery, unchanged. Reading 0.6 MB at
 * start-up instead of streaming through 6.5 MB keeps the file's load off the first write's way.
 *
 * <p>When fabric8's version changes, regenerate it from the project root:
 * {@code java -cp target/test-classes:$(cat cp.txt) io.watchgate.openapi.KubernetesDefinitionsFileTest}, with the
 * test classpath in cp.txt ({@code ./mvnw dependency:build-classpath -Dmdep.outputFile=cp.txt -Dmdep.includeScope=test}).
 */
class KubernetesDefinitionsFileTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SOURCE = "openshift-generated.json";
    private static final Path SERVED = Path.of("src/main/resources", KubernetesSchemas.RESOURCE);

    @Test
    void theServedFileHoldsExactlyTheServedPackagesOfFabric8sDocument() throws IOException {
        ObjectNode expected = extract();
        JsonNode served;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(KubernetesSchemas.RESOURCE)) {
            served = JSON.readTree(in);
        }
        List<String> differing = new ArrayList<>();
        expected.fieldNames().forEachRemaining(name -> {
            if (!expected.get(name).equals(served.path(KubernetesSchemas.DEFINITIONS).get(name))) {
                differing.add(name);
            }
        });
        served.path(KubernetesSchemas.DEFINITIONS).fieldNames().forEachRemaining(name -> {
            if (!expected.has(name)) {
                differing.add(name);
            }
        });
        assertEquals(List.of(), differing, SERVED + " differs from " + SOURCE + " for these definitions: "
                + "regenerate it (see this test's comment)");
        assertTrue(expected.size() > 300, "the served packages hold " + expected.size() + " definitions");
    }

    @Test
    void theLoaderFindsTheServedTypesDefinitionsInIt() {
        KubernetesSchemas schemas = new KubernetesSchemas(JSON);
        assertTrue(schemas.definition("io.k8s.api.core.v1.ConfigMap").isPresent());
        assertTrue(schemas.definition("io.k8s.api.coordination.v1.Lease").isPresent());
        assertTrue(schemas.definition("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta").isPresent());
        assertTrue(schemas.definition("io.k8s.api.networking.v1.Ingress").isEmpty(), "not a served group");
    }

    /** The served packages' definitions of fabric8's document, in its order. */
    static ObjectNode extract() throws IOException {
        JsonNode document;
        try (InputStream in = KubernetesDefinitionsFileTest.class.getClassLoader().getResourceAsStream(SOURCE)) {
            document = JSON.readTree(in);
        }
        ObjectNode kept = JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = document.path("definitions").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> definition = it.next();
            if (served(definition.getKey())) {
                kept.set(definition.getKey(), definition.getValue());
            }
        }
        return kept;
    }

    /** Whether a definition is of a package served: the built-in groups' v1 ones and apimachinery's. */
    private static boolean served(String name) {
        return name.startsWith(KubernetesSchemas.APIMACHINERY)
                || KubernetesSchemas.PACKAGES.values().stream().anyMatch(name::startsWith);
    }

    /** Writes the served file: one definition to a line, so that a new fabric8 version's diff reads by definition. */
    public static void main(String[] args) throws IOException {
        StringBuilder out = new StringBuilder("{\"" + KubernetesSchemas.DEFINITIONS + "\":{\n");
        Iterator<Map.Entry<String, JsonNode>> it = extract().fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> definition = it.next();
            out.append(line(definition.getKey())).append(':').append(line(definition.getValue()))
                    .append(it.hasNext() ? ",\n" : "\n");
        }
        out.append("}}\n");
        Files.writeString(SERVED, out, StandardCharsets.UTF_8);
        System.out.println("wrote " + SERVED);
    }

    private static String line(Object value) throws JsonProcessingException {
        return JSON.writeValueAsString(value);
    }
}
