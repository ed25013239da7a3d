package io.watchgate.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import io.watchgate.status.FieldPath;
import io.watchgate.types.ApiExtensionsTypes;
import io.watchgate.types.NameRule;
import io.watchgate.types.ResourceType;
import io.watchgate.types.Subresources;
import io.watchgate.types.UpdateStrategy;
import io.watchgate.validation.IdentifierSyntax;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a CustomResourceDefinition defines, read and checked from its object: the names, scope and versions of
 * the type it adds.
 */
public record CrdSpec(String group, String kind, String plural, String singular, String listKind,
        List<String> shortNames, List<String> categories, boolean namespaced, List<Version> versions) {

    /**
     * One version of the type: served or not, the one that is stored, and its schema.
     *
     * @param schema  the version's {@code schema.openAPIV3Schema}, or null
     * @param columns its {@code additionalPrinterColumns}
     * @param statusSubresource whether {@code subresources.status} is set
     */
    public record Version(String name, boolean served, boolean storage, JsonNode schema,
            List<PrinterColumn> columns, boolean statusSubresource) {
    }

    /** An {@code additionalPrinterColumns} entry: a Table column whose cells a JSONPath reads. */
    public record PrinterColumn(String name, String type, String format, String description, int priority,
            String jsonPath) {
    }

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final java.util.regex.Pattern KIND = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9]{0,62}");

    /**
     * Reads a CustomResourceDefinition about to be written; 422 with a cause per problem, as Kubernetes validates
     * them, its schemas' patterns included (parsed and measured, not compiled: see {@link PatternBudget}).
     */
    public static CrdSpec parse(ObjectNode crd) {
        return parse(crd, true);
    }

    /**
     * Reads a stored definition, which {@link #parse} checked when it was written: its schemas are not checked
     * again. Cheap, so it may run where a commit's lock is held (serving a committed definition).
     */
    public static CrdSpec read(ObjectNode crd) {
        return parse(crd, false);
    }

    private static CrdSpec parse(ObjectNode crd, boolean checkSchemas) {
        Causes causes = new Causes();
        PatternBudget patterns = new PatternBudget();
        JsonNode spec = crd.path("spec");
        String group = text(spec.path("group"));
        JsonNode names = spec.path("names");
        String plural = text(names.path("plural"));
        String kind = text(names.path("kind"));
        String singular = text(names.path("singular"));
        if (singular.isEmpty()) {
            singular = kind.toLowerCase(Locale.ROOT);
        }
        String listKind = text(names.path("listKind"));
        if (listKind.isEmpty()) {
            listKind = kind + "List";
        }
        if (group.isEmpty()) {
            causes.add(Cause.required("spec.group", ""));
        } else if (!group.contains(".")) {
            causes.add(Cause.invalid("spec.group", group, "should be a domain with at least one dot"));
        } else if (group.equals("k8s.io") || group.endsWith(".k8s.io") || group.equals("kubernetes.io")
                || group.endsWith(".kubernetes.io")) {
            // Kubernetes' own groups, the built-in apiextensions.k8s.io among them, are not for custom types
            causes.add(Cause.forbidden("spec.group", "the k8s.io and kubernetes.io groups are reserved"));
        } else {
            checkName(IdentifierSyntax.DNS1123_SUBDOMAIN, group, "spec.group", causes);
        }
        if (plural.isEmpty()) {
            causes.add(Cause.required("spec.names.plural", ""));
        } else {
            checkName(IdentifierSyntax.DNS1123_LABEL, plural, "spec.names.plural", causes);
        }
        if (kind.isEmpty()) {
            causes.add(Cause.required("spec.names.kind", ""));
        } else if (!KIND.matcher(kind).matches()) {
            causes.add(Cause.invalid("spec.names.kind", kind, "must be a letter followed by letters and digits"));
        }
        if (!KIND.matcher(listKind).matches()) {
            causes.add(Cause.invalid("spec.names.listKind", listKind, "must be a letter followed by letters and digits"));
        }
        if (!singular.isEmpty()) {
            checkName(IdentifierSyntax.DNS1123_LABEL, singular, "spec.names.singular", causes);
        }
        String name = crd.path("metadata").path("name").asText("");
        if (!plural.isEmpty() && !group.isEmpty() && !name.equals(plural + "." + group)) {
            causes.add(Cause.invalid("metadata.name", name, "must be spec.names.plural+\".\"+spec.group"));
        }
        String scope = text(spec.path("scope"));
        if (!scope.equals("Namespaced") && !scope.equals("Cluster")) {
            causes.add(scope.isEmpty() ? Cause.required("spec.scope", "")
                    : Cause.notSupported("spec.scope", scope, List.of("Cluster", "Namespaced")));
        }
        List<Version> versions = new ArrayList<>();
        int storage = 0;
        for (JsonNode version : spec.path("versions")) {
            String versionName = text(version.path("name"));
            if (versionName.isEmpty()) {
                causes.add(Cause.required("spec.versions[" + versions.size() + "].name", ""));
            } else {
                checkName(IdentifierSyntax.DNS1035_LABEL, versionName, "spec.versions[" + versions.size() + "].name",
                        causes);
            }
            JsonNode declared = version.path("schema").get("openAPIV3Schema");
            if (declared != null && checkSchemas) {
                SchemaShape.check(declared, FieldPath.of("spec.versions[" + versions.size()
                        + "].schema.openAPIV3Schema"), causes, patterns);
            }
            boolean isStorage = version.path("storage").asBoolean(false);
            storage += isStorage ? 1 : 0;
            JsonNode schema = version.path("schema").get("openAPIV3Schema");
            List<PrinterColumn> columns = new ArrayList<>();
            int index = 0;
            for (JsonNode column : version.path("additionalPrinterColumns")) {
                String field = "spec.versions[" + versions.size() + "].additionalPrinterColumns[" + index++ + "]";
                String columnName = text(column.path("name"));
                String jsonPath = text(column.path("jsonPath"));
                String columnType = text(column.path("type"));
                if (columnName.isEmpty()) {
                    causes.add(Cause.required(field + ".name", ""));
                }
                if (!jsonPath.startsWith(".")) {
                    causes.add(Cause.invalid(field + ".jsonPath", jsonPath, "must be a simple json path starting "
                            + "with ."));
                }
                if (!List.of("integer", "number", "string", "boolean", "date").contains(columnType)) {
                    causes.add(Cause.notSupported(field + ".type", columnType,
                            List.of("integer", "number", "string", "boolean", "date")));
                }
                columns.add(new PrinterColumn(columnName, columnType, text(column.path("format")),
                        text(column.path("description")), column.path("priority").asInt(0), jsonPath));
            }
            versions.add(new Version(versionName, version.path("served").asBoolean(false), isStorage,
                    schema == null || !schema.isObject() ? null : schema.deepCopy(), List.copyOf(columns),
                    version.path("subresources").has("status")));
        }
        if (versions.isEmpty()) {
            causes.add(Cause.required("spec.versions", "must have at least one version"));
        } else if (storage != 1) {
            causes.add(Cause.invalid("spec.versions", storage, "must have exactly one version marked as storage "
                    + "version"));
        }
        if (!causes.isEmpty()) {
            throw ApiException.invalid(ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.group(),
                    ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.kind(), name, causes);
        }
        return new CrdSpec(group, kind, plural, singular, listKind, strings(names.path("shortNames")),
                strings(names.path("categories")), scope.equals("Namespaced"), List.copyOf(versions));
    }

    /** The store's name for the type's objects, shared by all its versions. */
    public String resource() {
        return plural + "." + group;
    }

    /** The version named {@code name}, if defined. */
    public java.util.Optional<Version> version(String name) {
        return versions.stream().filter(version -> version.name().equals(name)).findFirst();
    }

    /**
     * The served versions as types for the registry. As kube's custom resource strategy: a PUT must name the
     * resourceVersion it replaces, and creates nothing.
     */
    public List<ResourceType> servedTypes() {
        return versions.stream().filter(Version::served).map(version -> new ResourceType(group, version.name(),
                kind, plural, singular, namespaced, shortNames, NameRule.DNS1123_SUBDOMAIN, Map.of(), false,
                Map.of(), ResourceType.ALL_VERBS, UpdateStrategy.CONDITIONAL,
                version.statusSubresource() ? Subresources.STATUS : Subresources.NONE)).toList();
    }

    /** The status the server gives a definition it accepted: its names accepted, and established. */
    /** The version objects are stored at (exactly one is marked so in a valid definition). */
    public java.util.Optional<String> storageVersion() {
        return versions.stream().filter(Version::storage).map(Version::name).findFirst();
    }

    public ObjectNode acceptedStatus(Instant now) {
        ObjectNode status = JSON.objectNode();
        ObjectNode accepted = status.putObject("acceptedNames");
        accepted.put("plural", plural).put("singular", singular).put("kind", kind).put("listKind", listKind);
        if (!shortNames.isEmpty()) {
            shortNames.forEach(accepted.putArray("shortNames")::add);
        }
        if (!categories.isEmpty()) {
            categories.forEach(accepted.putArray("categories")::add);
        }
        ArrayNode conditions = status.putArray("conditions");
        String time = now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        conditions.addObject().put("type", "NamesAccepted").put("status", "True").put("lastTransitionTime", time)
                .put("reason", "NoConflicts").put("message", "no conflicts found");
        conditions.addObject().put("type", "Established").put("status", "True").put("lastTransitionTime", time)
                .put("reason", "InitialNamesAccepted").put("message", "the initial names have been accepted");
        ArrayNode stored = status.putArray("storedVersions");
        versions.stream().filter(Version::storage).forEach(version -> stored.add(version.name()));
        return status;
    }

    /** 422 unless this definition may replace {@code before}: group, scope and plural are fixed for good. */
    public void checkChangeFrom(CrdSpec before) {
        if (!before.group.equals(group) || before.namespaced != namespaced || !before.plural.equals(plural)) {
            throw ApiException.invalid(ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.group(),
                    ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.kind(), resource(),
                    List.of(Cause.forbidden("spec", "group, scope and plural name cannot be changed")));
        }
    }

    /**
     * The status after an update: the server's own, so the conditions stay as they were, with the names accepted
     * now and every version ever stored.
     */
    public ObjectNode statusAfterUpdate(JsonNode current, Instant now) {
        ObjectNode fresh = acceptedStatus(now);
        if (!current.isObject()) {
            return fresh;
        }
        ObjectNode status = ((ObjectNode) current).deepCopy();
        status.set("acceptedNames", fresh.get("acceptedNames"));
        java.util.Set<String> stored = new java.util.LinkedHashSet<>();
        status.path("storedVersions").forEach(version -> stored.add(version.asText()));
        fresh.path("storedVersions").forEach(version -> stored.add(version.asText()));
        stored.forEach(status.putArray("storedVersions")::add);
        return status;
    }

    private static void checkName(IdentifierSyntax syntax, String value, String field, Causes causes) {
        String problem = syntax.problem(value);
        if (problem != null) {
            causes.add(Cause.invalid(field, value, problem));
        }
    }

    private static String text(JsonNode node) {
        return node.isTextual() ? node.asText() : "";
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asText()));
        return List.copyOf(values);
    }
}
