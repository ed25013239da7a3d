package io.watchgate.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PatcherTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Patcher patcher = new Patcher();
    private final ResourceTypes types = new ResourceTypes();
    private final ResourceType pods = types.find("", "v1", "pods").orElseThrow();
    private final ResourceType widgets = new ResourceType("example.com", "v1", "Widget", "widgets", "widget", true,
            List.of(), io.watchgate.types.NameRule.DNS1123_SUBDOMAIN, Map.of(), false, Map.of(), ResourceType.ALL_VERBS);

    private ObjectNode apply(ResourceType type, PatchType patchType, ObjectNode current, JsonNode patch) {
        return patcher.apply(type, patchType, current, patch, Long.MAX_VALUE);
    }

    private static ObjectNode object(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    private static JsonNode json(String json) throws Exception {
        return JSON.readTree(json.replace('\'', '"'));
    }

    @Test
    void mergePatchFollowsRfc7386() throws Exception {
        ObjectNode current = object("{'a':{'b':1,'c':2},'list':[1,2],'gone':true}");
        ObjectNode patched = apply(pods, PatchType.MERGE_PATCH, current,
                json("{'a':{'b':null,'d':3},'list':[3],'gone':null}"));
        assertEquals(object("{'a':{'c':2,'d':3},'list':[3]}"), patched);
        assertEquals(object("{'a':{'b':1,'c':2},'list':[1,2],'gone':true}"), current, "the stored object is untouched");
    }

    @Test
    void jsonPatchFollowsRfc6902IncludingTest() throws Exception {
        ObjectNode current = object("{'metadata':{'name':'x'},'data':{'k':'v'}}");
        ObjectNode patched = apply(pods, PatchType.JSON_PATCH, current,
                json("[{'op':'test','path':'/data/k','value':'v'},{'op':'add','path':'/data/n','value':'1'},"
                        + "{'op':'remove','path':'/data/k'}]"));
        assertEquals(object("{'metadata':{'name':'x'},'data':{'n':'1'}}"), patched);

        ApiException failedTest = assertThrows(ApiException.class, () -> apply(pods, PatchType.JSON_PATCH,
                current, json("[{'op':'test','path':'/data/k','value':'other'}]")));
        assertEquals(422, failedTest.code());
        assertEquals(400, assertThrows(ApiException.class, () -> apply(pods, PatchType.JSON_PATCH, current,
                json("[{'op':'jump','path':'/data'}]"))).code());
        assertEquals(400, assertThrows(ApiException.class, () -> apply(pods, PatchType.JSON_PATCH, current,
                json("{'op':'add'}"))).code());
    }

    @Test
    void strategicMergePatchMergesContainersByName() throws Exception {
        ObjectNode current = object("{'spec':{'containers':[{'name':'a','image':'a:1','env':[{'name':'X','value':'1'}]},"
                + "{'name':'b','image':'b:1'}]}}");
        ObjectNode patched = apply(pods, PatchType.STRATEGIC_MERGE_PATCH, current,
                json("{'spec':{'containers':[{'name':'b','image':'b:2'},{'name':'c','image':'c:1'},"
                        + "{'name':'a','env':[{'name':'Y','value':'2'}]}]}}"));
        assertEquals(object("{'spec':{'containers':[{'name':'a','image':'a:1','env':[{'name':'X','value':'1'},"
                + "{'name':'Y','value':'2'}]},{'name':'b','image':'b:2'},{'name':'c','image':'c:1'}]}}"), patched);
    }

    @Test
    void strategicMergePatchDirectives() throws Exception {
        ObjectNode current = object("{'metadata':{'finalizers':['a','b']},'spec':{'containers':[{'name':'a'},"
                + "{'name':'b'}],'nodeSelector':{'x':'1','y':'2'}}}");
        ObjectNode patched = apply(pods, PatchType.STRATEGIC_MERGE_PATCH, current,
                json("{'metadata':{'finalizers':['c'],'$deleteFromPrimitiveList/finalizers':['a']},"
                        + "'spec':{'containers':[{'name':'a','$patch':'delete'}],"
                        + "'nodeSelector':{'$patch':'replace','z':'3'}}}"));
        assertEquals(object("{'metadata':{'finalizers':['b','c']},'spec':{'containers':[{'name':'b'}],"
                + "'nodeSelector':{'z':'3'}}}"), patched);
    }

    @Test
    void strategicMergePatchHonoursElementOrderAndRetainKeys() throws Exception {
        ObjectNode current = object("{'spec':{'containers':[{'name':'a'},{'name':'b'}],"
                + "'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':1}}}}");
        ObjectNode patched = apply(pods, PatchType.STRATEGIC_MERGE_PATCH, current,
                json("{'spec':{'$setElementOrder/containers':[{'name':'b'},{'name':'a'}],"
                        + "'containers':[{'name':'b','image':'b'}],"
                        + "'strategy':{'$retainKeys':['type'],'type':'Recreate'}}}"));
        assertEquals(object("{'spec':{'containers':[{'name':'b','image':'b'},{'name':'a'}],"
                + "'strategy':{'type':'Recreate'}}}"), patched);
    }

    @Test
    void listsWithoutAMergeKeyAreReplaced() throws Exception {
        ObjectNode current = object("{'spec':{'containers':[{'name':'a','args':['x','y']}]}}");
        ObjectNode patched = apply(pods, PatchType.STRATEGIC_MERGE_PATCH, current,
                json("{'spec':{'containers':[{'name':'a','args':['z']}]}}"));
        assertEquals(object("{'spec':{'containers':[{'name':'a','args':['z']}]}}"), patched);
    }

    @Test
    void strategicMergePatchIsRefusedForCustomTypes() throws Exception {
        ApiException e = assertThrows(ApiException.class, () -> apply(widgets,
                PatchType.STRATEGIC_MERGE_PATCH, object("{}"), json("{}")));
        assertEquals(415, e.code());
    }

    @Test
    void aJsonPatchAppliedAgainToTheSameObjectGivesTheSameResult() throws Exception {
        // a write that lost a race applies its patch again: a value the first attempt inserted and then changed
        // must not come back changed
        ObjectNode current = object("{'data':{}}");
        JsonNode patch = json("[{'op':'add','path':'/data/a','value':{'x':'1'}},{'op':'remove','path':'/data/a/x'}]");
        ObjectNode first = apply(pods, PatchType.JSON_PATCH, current, patch);
        assertEquals(first, apply(pods, PatchType.JSON_PATCH, current, patch));
        assertEquals(object("{'data':{'a':{}}}"), first);
    }

    @Test
    void aJsonPatchOfMoreThanTenThousandOperationsIsTooLarge() throws Exception {
        com.fasterxml.jackson.databind.node.ArrayNode patch = JSON.createArrayNode();
        for (int i = 0; i <= Patcher.MAX_JSON_PATCH_OPERATIONS; i++) {
            patch.addObject().put("op", "test").put("path", "/metadata/name").put("value", "x");
        }
        ApiException e = assertThrows(ApiException.class, () -> apply(pods, PatchType.JSON_PATCH,
                object("{'metadata':{'name':'x'}}"), patch));
        assertEquals(413, e.code());
        patch.remove(0);
        assertEquals(object("{'metadata':{'name':'x'}}"), apply(pods, PatchType.JSON_PATCH,
                object("{'metadata':{'name':'x'}}"), patch), "exactly the limit is allowed");
    }

    @Test
    void strategicMergeDeletesAKeyBeforeItMergesTheListAsKubernetesDoes() throws Exception {
        ObjectNode current = object("{'metadata':{'ownerReferences':[{'uid':'a','name':'1'},{'uid':'b'},"
                + "{'uid':'a','name':'dup'}]}}");
        ObjectNode patched = apply(pods, PatchType.STRATEGIC_MERGE_PATCH, current,
                json("{'metadata':{'ownerReferences':[{'uid':'a','name':'2'},{'uid':'a','$patch':'delete'}]}}"));
        assertEquals(object("{'metadata':{'ownerReferences':[{'uid':'b'},{'uid':'a','name':'2'}]}}"), patched,
                "every element keyed 'a' is deleted, then 'a' is added anew");
    }

    @Test
    void errorMessagesQuoteAtMostAFewHundredCharactersOfTheBody() throws Exception {
        String huge = "x".repeat(100_000);
        ApiException e = assertThrows(ApiException.class, () -> apply(pods, PatchType.STRATEGIC_MERGE_PATCH,
                object("{}"), json("{'metadata':{'ownerReferences':[{'name':'" + huge + "'}]}}")));
        assertEquals(400, e.code());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().length() < 1000, e.getMessage().length() + " chars");
    }

    @Test
    void aJsonPatchThatWouldShiftTooManyArrayElementsIsTooLarge() throws Exception {
        Patcher bounded = new Patcher(new io.watchgate.metrics.Refusals(new io.micrometer.core.instrument.simple.SimpleMeterRegistry()), 1_000);
        ObjectNode current = object("{'list':[]}");
        for (int i = 0; i < 100; i++) {
            ((com.fasterxml.jackson.databind.node.ArrayNode) current.get("list")).add(i);
        }
        JsonNode atTheHead = json("[" + "{'op':'add','path':'/list/0','value':0},".repeat(20) + "{'op':'remove','path':'/list/0'}]");
        ApiException e = assertThrows(ApiException.class, () -> bounded.apply(pods, PatchType.JSON_PATCH, current,
                atTheHead, Long.MAX_VALUE));
        assertEquals(413, e.code());
        JsonNode atTheEnd = json("[" + "{'op':'add','path':'/list/-','value':0},".repeat(20) + "{'op':'remove','path':'/list/119'}]");
        assertEquals(100 + 20 - 1, bounded.apply(pods, PatchType.JSON_PATCH, current, atTheEnd, Long.MAX_VALUE)
                .get("list").size(), "appending and removing at the end shifts nothing");
    }
}
