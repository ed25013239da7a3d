package io.watchgate.crd;

import io.vertx.core.Context;
import io.watchgate.http.TooLongForAnEventLoop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.re2j.PatternSyntaxException;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import io.watchgate.status.FieldPath;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A CustomResourceDefinition version's {@code openAPIV3Schema}, applied as kube-apiserver applies structural
 * schemas: fields the schema does not declare are pruned (unless it preserves unknown fields), then values are
 * checked for type, required, enum, pattern, bounds, lengths and item counts, each problem a cause.
 *
 * <p>One walk, linear in the object: a value's path is built as text only when a problem there is reported, an
 * enum is a hash lookup, a pattern is compiled once per walk, and past {@link Causes#MAX} problems are only counted.
 */
public final class StructuralSchema {

    private static final int MAX_DEPTH = 200;
    /**
     * What matching one object's strings against their patterns may take, in text length times program size (about
     * 20 ns each): a megabyte of text against a pattern of a few instructions, but not against one of thousands,
     * which would take a minute ({@code a{0,1000}b} over a megabyte of "a"s). Past it, a value is refused.
     */
    static final long MAX_MATCH_STEPS = 20_000_000;
    /**
     * What matching may take on an event loop (tens of milliseconds); past it the walk gives way to a worker
     * thread ({@link TooLongForAnEventLoop}) and is done again there within {@link #MAX_MATCH_STEPS}.
     */
    static final long EVENT_LOOP_MATCH_STEPS = 2_000_000;

    private final JsonNode root;
    private volatile SchemaEnums enums; // built on first use: a definition is served in its commit, under its lock
    private final Map<JsonNode, Map<String, Integer>> requiredCounts =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    public StructuralSchema(JsonNode root) {
        this.root = root;
    }

    /** Prunes {@code object} in place and returns what is wrong with it (none when valid). */
    public Causes apply(ObjectNode object) {
        Walk walk = new Walk(true, new Causes(), new UndeclaredFields(0));
        walk.value(object, root, FieldPath.ROOT, 0, true);
        return walk.causes;
    }

    /**
     * The paths of the fields pruning would drop from {@code object} ("spec.bogus"), which stays untouched: the
     * first {@code max} of them, and how many there are.
     */
    public UndeclaredFields undeclaredFields(ObjectNode object, int max) {
        Walk walk = new Walk(false, new Causes(), new UndeclaredFields(max));
        walk.value(object, root, FieldPath.ROOT, 0, true);
        return walk.undeclared;
    }

    /** How often each name appears in a long {@code required} list of this schema, counted once per list. */
    private Map<String, Integer> requiredCounts(JsonNode required) {
        return requiredCounts.computeIfAbsent(required, list -> {
            Map<String, Integer> counts = new HashMap<>();
            list.forEach(name -> counts.merge(name.asText(), 1, Integer::sum));
            return counts;
        });
    }

    private SchemaEnums enums() {
        SchemaEnums built = enums;
        if (built == null) {
            built = SchemaEnums.of(root);
            enums = built;
        }
        return built;
    }

    /** One pass over one object. */
    private final class Walk {
        private final boolean prune;
        private final Causes causes;
        private final UndeclaredFields undeclared;
        private final Map<String, SchemaPatterns.Compiled> patterns = new HashMap<>(); // this walk's: a cache cleared meanwhile costs no recompile
        private final boolean onEventLoop = Context.isOnEventLoopThread();
        private long matchSteps = onEventLoop ? EVENT_LOOP_MATCH_STEPS : MAX_MATCH_STEPS;

        Walk(boolean prune, Causes causes, UndeclaredFields undeclared) {
            this.prune = prune;
            this.causes = causes;
            this.undeclared = undeclared;
        }

        void value(JsonNode value, JsonNode schema, FieldPath path, int depth, boolean atRoot) {
            if (schema == null || !schema.isObject() || depth > MAX_DEPTH) {
                return;
            }
            if (value == null || value.isNull()) {
                if (value != null && !schema.path("nullable").asBoolean(false) && schema.has("type")
                        && causes.accept()) {
                    causes.add(Cause.invalid(path.toString(), "null", path + " in body must be of type "
                            + schema.path("type").asText() + ": \"null\""));
                }
                return;
            }
            if (!SchemaTypes.hasType(value, schema)) {
                if (causes.accept()) {
                    String type = SchemaTypes.jsonType(value);
                    causes.add(Cause.invalid(path.toString(), value.isContainerNode() ? type : display(value),
                            path + " in body must be of type " + schema.path("type").asText() + ": \"" + type + "\""));
                }
                return;
            }
            JsonNode allowed = schema.get("enum");
            if (allowed != null && allowed.isArray() && !enums().allows(allowed, value) && causes.accept()) {
                causes.add(Cause.notSupported(path.toString(), value.isTextual() ? value.asText()
                        : value.isContainerNode() ? SchemaTypes.jsonType(value) : value.toString(), supported(allowed)));
            }
            if (value.isTextual()) {
                string(value.asText(), schema, path);
            } else if (value.isNumber()) {
                number(value, schema, path);
            } else if (value.isArray()) {
                array(value, schema, path, depth);
            } else if (value.isObject()) {
                object((ObjectNode) value, schema, path, depth, atRoot);
            }
        }

        private void string(String text, JsonNode schema, FieldPath path) {
            boolean bounded = schema.has("minLength") || schema.has("maxLength");
            int length = bounded ? text.codePointCount(0, text.length()) : 0;
            if (schema.has("minLength") && length < schema.get("minLength").asLong() && causes.accept()) {
                causes.add(Cause.invalid(path.toString(), text, path + " in body should be at least "
                        + schema.get("minLength").asLong() + " chars long"));
            }
            if (schema.has("maxLength") && length > schema.get("maxLength").asLong() && causes.accept()) {
                causes.add(Cause.tooLong(path.toString(), schema.get("maxLength").asLong()));
            }
            JsonNode pattern = schema.get("pattern");
            SchemaPatterns.Compiled compiled = pattern == null ? null : compiled(pattern.asText());
            if (compiled != null) {
                // RE2 matches in time linear in the text, times the program's size: both are the client's to choose
                matchSteps -= (long) text.length() * Math.max(1, compiled.instructions());
                if (matchSteps < 0 && onEventLoop) {
                    throw new TooLongForAnEventLoop("matching " + path + " against its pattern");
                }
                if (matchSteps < 0) {
                    if (causes.accept()) {
                        causes.add(Cause.forbidden(path.toString(), "too long to be matched against '"
                                + pattern.asText() + "' within the " + MAX_MATCH_STEPS + " steps an object may take"));
                    }
                } else if (!compiled.pattern().matcher(text).find() && causes.accept()) {
                    causes.add(Cause.invalid(path.toString(), text, path + " in body should match '"
                            + pattern.asText() + "'"));
                }
            }
        }

        private SchemaPatterns.Compiled compiled(String pattern) {
            if (patterns.containsKey(pattern)) {
                return patterns.get(pattern);
            }
            SchemaPatterns.Compiled compiled;
            try {
                compiled = SchemaPatterns.compile(pattern);
            } catch (PatternSyntaxException e) {
                // refused when the definition was written; one stored before that rule is not the client's fault
                compiled = null;
            }
            patterns.put(pattern, compiled);
            return compiled;
        }

        private void number(JsonNode value, JsonNode schema, FieldPath path) {
            BigDecimal number = value.decimalValue();
            if (schema.has("minimum")) {
                BigDecimal minimum = schema.get("minimum").decimalValue();
                boolean exclusive = schema.path("exclusiveMinimum").asBoolean(false);
                int compared = number.compareTo(minimum);
                if ((compared < 0 || (exclusive && compared == 0)) && causes.accept()) {
                    causes.add(Cause.invalid(path.toString(), value.asText(), path + " in body should be greater "
                            + "than " + (exclusive ? "" : "or equal to ") + SchemaTypes.plain(minimum)));
                }
            }
            if (schema.has("maximum")) {
                BigDecimal maximum = schema.get("maximum").decimalValue();
                boolean exclusive = schema.path("exclusiveMaximum").asBoolean(false);
                int compared = number.compareTo(maximum);
                if ((compared > 0 || (exclusive && compared == 0)) && causes.accept()) {
                    causes.add(Cause.invalid(path.toString(), value.asText(), path + " in body should be less than "
                            + (exclusive ? "" : "or equal to ") + SchemaTypes.plain(maximum)));
                }
            }
        }

        private void array(JsonNode array, JsonNode schema, FieldPath path, int depth) {
            if (schema.has("minItems") && array.size() < schema.get("minItems").asLong() && causes.accept()) {
                causes.add(Cause.invalid(path.toString(), array.size(), path + " in body should have at least "
                        + schema.get("minItems").asLong() + " items"));
            }
            if (schema.has("maxItems") && array.size() > schema.get("maxItems").asLong() && causes.accept()) {
                causes.add(Cause.invalid(path.toString(), array.size(), "must have at most "
                        + schema.get("maxItems").asLong() + " items"));
            }
            JsonNode items = schema.get("items");
            if (items == null || !items.isObject()) {
                return;
            }
            for (int i = 0; i < array.size(); i++) {
                value(array.get(i), items, path.index(i), depth + 1, false);
            }
        }

        private void object(ObjectNode object, JsonNode schema, FieldPath path, int depth, boolean atRoot) {
            JsonNode properties = schema.get("properties");
            JsonNode additional = schema.get("additionalProperties");
            boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
            JsonNode required = schema.get("required");
            if (required != null && required.isArray()) {
                required(object, required, path);
            }
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String name = field.getKey();
                if (atRoot && (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata"))) {
                    continue; // the server's own, checked as for every type
                }
                JsonNode declared = properties == null ? null : properties.get(name);
                if (declared != null) {
                    value(field.getValue(), declared, path.field(name), depth + 1, false);
                } else if (additional != null && additional.isObject()) {
                    value(field.getValue(), additional, path.field(name), depth + 1, false);
                } else if (!preserve && !(additional != null && additional.asBoolean(false))) {
                    undeclared.add(path.field(name), name);
                    if (prune) {
                        fields.remove(); // pruned, as structural schemas prune what they do not declare
                    }
                }
            }
        }

        /**
         * The required fields {@code object} lacks. A schema may require a hundred thousand names of each of a
         * million objects: the names are looked at only until the causes are full, and the rest are counted from the
         * object's own fields, so an object costs what it holds, not what its schema lists.
         */
        private void required(ObjectNode object, JsonNode required, FieldPath path) {
            int looked = 0;
            long missing = 0;
            for (JsonNode name : required) {
                if (looked == object.size() + Causes.MAX) {
                    break; // past as many names as the object has fields, and as many missing as are described
                }
                looked++;
                if (!object.has(name.asText())) {
                    missing++;
                    if (causes.accept()) {
                        causes.add(Cause.required(path.field(name.asText()).toString(), ""));
                    }
                }
            }
            if (looked < required.size()) {
                Map<String, Integer> counts = requiredCounts(required);
                long present = 0;
                for (Iterator<String> fields = object.fieldNames(); fields.hasNext();) {
                    present += counts.getOrDefault(fields.next(), 0);
                }
                causes.countOmitted(Math.max(0, required.size() - present - missing));
            }
        }
    }

    private static List<String> supported(JsonNode allowed) {
        List<String> supported = new ArrayList<>();
        for (JsonNode candidate : allowed) {
            if (supported.size() == 100) {
                break; // a cause shows the first few anyway
            }
            supported.add(candidate.isTextual() ? candidate.asText()
                    : candidate.isContainerNode() ? SchemaTypes.jsonType(candidate) : candidate.toString());
        }
        return supported;
    }

    private static Object display(JsonNode value) {
        return value.isTextual() ? value.asText() : value.toString();
    }
}
