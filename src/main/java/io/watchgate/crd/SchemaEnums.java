package io.watchgate.crd;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every {@code enum} of a schema as a hash set, so that checking a value costs one lookup, not one comparison per
 * allowed value: a million values against an enum of ten thousand would otherwise take ten billion.
 */
final class SchemaEnums {

    /** An enum's scalars, hashed; its objects and arrays (rare) compared one by one. */
    private record Allowed(Set<JsonNode> scalars, List<JsonNode> containers) {
    }

    private final Map<JsonNode, Allowed> byEnum; // keyed by the enum array itself: nodes of one schema tree

    private SchemaEnums(Map<JsonNode, Allowed> byEnum) {
        this.byEnum = byEnum;
    }

    /** Reads every enum under {@code root}, with a stack of its own. */
    static SchemaEnums of(JsonNode root) {
        Map<JsonNode, Allowed> byEnum = new IdentityHashMap<>();
        Deque<JsonNode> schemas = new ArrayDeque<>();
        schemas.push(root);
        while (!schemas.isEmpty()) {
            JsonNode schema = schemas.pop();
            if (!schema.isObject()) {
                continue;
            }
            JsonNode allowed = schema.get("enum");
            if (allowed != null && allowed.isArray()) {
                byEnum.put(allowed, read(allowed));
            }
            schema.path("properties").forEach(schemas::push);
            JsonNode items = schema.get("items");
            if (items != null) {
                schemas.push(items);
            }
            JsonNode additional = schema.get("additionalProperties");
            if (additional != null) {
                schemas.push(additional);
            }
        }
        return new SchemaEnums(byEnum);
    }

    private static Allowed read(JsonNode allowed) {
        Set<JsonNode> scalars = new HashSet<>();
        List<JsonNode> containers = new ArrayList<>();
        for (JsonNode candidate : allowed) {
            if (candidate.isContainerNode()) {
                containers.add(candidate);
            } else {
                scalars.add(candidate);
            }
        }
        return new Allowed(scalars, containers);
    }

    /** Whether {@code value} is one of {@code allowed}, an enum array of this schema. */
    boolean allows(JsonNode allowed, JsonNode value) {
        Allowed known = byEnum.get(allowed);
        if (known == null) {
            known = read(allowed); // not found by the walk (a schema shape it does not follow): read it now
        }
        if (!value.isContainerNode()) {
            return known.scalars().contains(value);
        }
        for (JsonNode candidate : known.containers()) {
            if (candidate.equals(value)) {
                return true;
            }
        }
        return false;
    }
}
