package io.watchgate.managedfields;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fieldsV1 encoding of a field set, byte for byte as kube-apiserver writes it, and read back. */
class FieldsV1Test {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void membersAreWrittenSelfFirstThenFieldsKeysValuesAndIndexesInOrder() throws Exception {
        String written = "{\"f:metadata\":{\"f:finalizers\":{\".\":{},\"v:\\\"a\\\"\":{},\"v:\\\"b\\\"\":{}},"
                + "\"f:labels\":{\".\":{},\"f:app\":{}}},\"f:spec\":{\"f:ports\":{"
                + "\"k:{\\\"port\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":{\".\":{},\"f:port\":{}},"
                + "\"k:{\\\"port\\\":443,\\\"protocol\\\":\\\"TCP\\\"}\":{}},\"f:replicas\":{}}}";
        FieldSet set = FieldsV1.decode(json(written));
        assertEquals(written, FieldsV1.encode(set).toString());
    }

    @Test
    void aSetBuiltInAnyOrderIsWrittenSorted() {
        FieldSet set = FieldSet.empty();
        set.insert(List.of(PathElement.field("spec"), PathElement.field("b")));
        set.insert(List.of(PathElement.field("spec"), PathElement.index(2)));
        set.insert(List.of(PathElement.field("spec"), PathElement.value(JSON.getNodeFactory().textNode("x"))));
        set.insert(List.of(PathElement.field("spec"), PathElement.value(JSON.getNodeFactory().numberNode(7))));
        set.insert(List.of(PathElement.field("spec"), PathElement.field("a")));
        set.insert(List.of(PathElement.field("spec")));
        assertEquals("{\"f:spec\":{\".\":{},\"f:a\":{},\"f:b\":{},\"v:7\":{},\"v:\\\"x\\\"\":{},\"i:2\":{}}}",
                FieldsV1.encode(set).toString());
    }

    @Test
    void pathsPrintAsInConflictMessages() throws Exception {
        FieldSet set = FieldsV1.decode(json("{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"app\\\"}\":"
                + "{\"f:image\":{}}}},\"f:metadata\":{\"f:finalizers\":{\"v:\\\"x\\\"\":{}}}}"));
        assertEquals(List.of(".metadata.finalizers[=\"x\"]", ".spec.containers[name=\"app\"].image"),
                set.paths().stream().map(FieldSet::printed).toList());
    }

    @Test
    void unknownPrefixesAreSkippedAndMalformedKeysRefused() throws Exception {
        assertTrue(FieldsV1.decode(json("{\"x:odd\":{},\"f:a\":{\"z:b\":{}}}")).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> FieldsV1.decode(json("{\"k:[1]\":{}}")));
        assertThrows(IllegalArgumentException.class, () -> FieldsV1.decode(json("{\"f:a\":[]}")));
        // keys and set items are scalars: a nested one is refused at once, not compared level by level
        assertThrows(IllegalArgumentException.class, () -> FieldsV1.decode(json("{\"k:{\\\"a\\\":{\\\"b\\\":1}}\":{}}")));
        assertThrows(IllegalArgumentException.class, () -> FieldsV1.decode(json("{\"v:[1]\":{}}")));
    }

    @Test
    void setOperationsFollowStructuredMergeDiff() throws Exception {
        FieldSet a = FieldsV1.decode(json("{\"f:data\":{\".\":{},\"f:a\":{},\"f:b\":{}}}"));
        FieldSet b = FieldsV1.decode(json("{\"f:data\":{\"f:b\":{},\"f:c\":{}}}"));
        assertEquals("{\"f:data\":{\".\":{},\"f:a\":{}}}", FieldsV1.encode(a.difference(b)).toString());
        assertEquals("{\"f:data\":{\"f:b\":{}}}", FieldsV1.encode(a.intersection(b)).toString());
        assertEquals("{\"f:data\":{\".\":{},\"f:a\":{},\"f:b\":{},\"f:c\":{}}}", FieldsV1.encode(a.union(b)).toString());
        FieldSet data = FieldsV1.decode(json("{\"f:data\":{}}"));
        FieldSet below = a.copy();
        below.removeBelow(data);
        assertTrue(below.isEmpty());
        assertEquals("{\"f:data\":{\"f:a\":{},\"f:b\":{}}}", FieldsV1.encode(a.difference(data)).toString());
    }
}
