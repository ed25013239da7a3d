package io.watchgate.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import io.watchgate.status.Causes;
import io.watchgate.types.CoordinationTypes;
import io.watchgate.types.EventTypes;
import io.watchgate.types.WorkloadTypes;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import jakarta.validation.groups.Default;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hibernate.validator.HibernateValidatorFactory;
import org.hibernate.validator.engine.HibernateConstraintViolation;

/**
 * Validates an object about to be stored, as kube-apiserver would: reads the fields Kubernetes checks into a
 * view, runs Hibernate Validator over it, and answers 422 Invalid with one cause per bad field. Fields that
 * cannot even be read as their type (a label value that is a number) are 400 BadRequest.
 */
@ApplicationScoped
public class ObjectValidator {

    /** Past this many map entries and list items, a validation counts problems beyond {@link Causes#MAX}. */
    private static final int BUDGETED_FROM = Causes.MAX;

    private final Validator validator;
    private final HibernateValidatorFactory factory;

    ObjectValidator(Validator validator, ValidatorFactory factory) {
        this.validator = validator;
        this.factory = factory.unwrap(HibernateValidatorFactory.class);
    }

    public void validate(ResourceType type, ObjectNode object) {
        validate(type, object, null);
    }

    /** @param old the object as stored, for an update: some rules (a binding's roleRef) forbid a change */
    public void validate(ResourceType type, ObjectNode object, ObjectNode old) {
        MetadataView metadata = metadataOf(type, object);
        Set<? extends ConstraintViolation<?>> violations;
        Causes causes = new Causes();
        Class<?>[] groups = { Default.class, NameGroups.of(type.nameRule()) };
        ProblemBudget budget = new ProblemBudget();
        if (hasData(type)) {
            Map<String, String> data = stringMap(type, object, "data");
            Map<String, String> binaryData = stringMap(type, object, "binaryData");
            boolean dataIsBase64 = type.kind().equals("Secret");
            long bytes = dataBytes(type, data, dataIsBase64) + dataBytes(type, binaryData, true);
            violations = validatorFor(metadata, size(data) + size(binaryData), budget)
                    .validate(new DataView(metadata, data, binaryData, bytes), groups);
            if (data != null && binaryData != null) {
                data.keySet().stream().filter(binaryData::containsKey).sorted().filter(key -> causes.accept())
                        .forEach(key -> causes.add(Cause.invalid("data[" + key + "]", key,
                                "duplicate of key present in binaryData")));
            }
        } else {
            violations = validatorFor(metadata, 0, budget).validate(new ObjectView(metadata), groups);
        }
        checkOwnerReferences(type, object.path("metadata"));
        OwnershipRules.check(object.path("metadata"), causes);
        violations.stream()
                .map(ObjectValidator::causeOf)
                .sorted(Comparator.comparing(Cause::field))
                .forEach(causes::add);
        if (RbacTypes.isRbac(type) && RbacTypes.ALL.contains(type)) {
            RbacObjectRules.check(type, object, old, causes);
        }
        if (CoordinationTypes.ALL.contains(type)) {
            LeaseRules.check(object, causes);
        }
        if (WorkloadTypes.ALL.contains(type)) {
            WorkloadRules.check(type.kind(), object, old, causes);
        }
        if (EventTypes.ALL.contains(type)) {
            EventRules.check(object, old, causes);
        }
        causes.countOmitted(budget.omitted());
        if (!causes.isEmpty()) {
            throw ApiException.invalid(type.group(), type.kind(), metadata.name(), causes);
        }
    }

    /**
     * The shared validator for everyday objects; for one with many entries, a validator of its own that describes
     * the first problems and counts the rest (Hibernate Validator would otherwise build a violation for each).
     */
    private Validator validatorFor(MetadataView metadata, int dataEntries, ProblemBudget budget) {
        int entries = dataEntries + size(metadata.labels()) + size(metadata.annotations())
                + (metadata.finalizers() == null ? 0 : metadata.finalizers().size());
        if (entries < BUDGETED_FROM) {
            return validator;
        }
        return factory.usingContext().constraintValidatorPayload(budget).getValidator();
    }

    private static int size(Map<String, String> map) {
        return map == null ? 0 : map.size();
    }

    private static boolean hasData(ResourceType type) {
        return type.group().isEmpty() && (type.kind().equals("ConfigMap") || type.kind().equals("Secret"));
    }

    private static MetadataView metadataOf(ResourceType type, ObjectNode object) {
        JsonNode metadata = object.path("metadata");
        return new MetadataView(metadata.path("name").asText(""),
                stringMap(type, metadata, "labels"), stringMap(type, metadata, "annotations"),
                stringList(type, metadata, "finalizers"));
    }

    private static List<String> stringList(ResourceType type, JsonNode parent, String field) {
        JsonNode node = parent.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw cannotDecode(type, field, "[]string", node);
        }
        List<String> list = new ArrayList<>();
        for (JsonNode element : node) {
            if (!element.isTextual()) {
                throw cannotDecode(type, field, "string", element);
            }
            list.add(element.textValue());
        }
        return list;
    }

    /** The owner references decode as a list of objects; what they say, OwnershipRules checks. */
    private static void checkOwnerReferences(ResourceType type, JsonNode metadata) {
        JsonNode references = metadata.path("ownerReferences");
        if (references.isMissingNode() || references.isNull()) {
            return;
        }
        if (!references.isArray()) {
            throw cannotDecode(type, "ownerReferences", "[]v1.OwnerReference", references);
        }
        for (int i = 0; i < references.size(); i++) {
            JsonNode reference = references.get(i);
            if (!reference.isObject()) {
                throw cannotDecode(type, "ownerReferences", "v1.OwnerReference", reference);
            }
        }
    }

    /** A generateName prefix must be a valid start of a name (422 on metadata.generateName otherwise). */
    public void validateGenerateName(ResourceType type, String prefix) {
        String problem = syntaxOf(type).prefixProblem(prefix);
        if (problem != null) {
            throw ApiException.invalid(type.group(), type.kind(), "", List.of(
                    Cause.invalid("metadata.generateName", prefix, problem)));
        }
    }

    private static IdentifierSyntax syntaxOf(ResourceType type) {
        return switch (type.nameRule()) {
            case DNS1123_SUBDOMAIN -> IdentifierSyntax.DNS1123_SUBDOMAIN;
            case DNS1123_LABEL -> IdentifierSyntax.DNS1123_LABEL;
            case DNS1035_LABEL -> IdentifierSyntax.DNS1035_LABEL;
            case PATH_SEGMENT -> IdentifierSyntax.PATH_SEGMENT;
        };
    }

    private static Map<String, String> stringMap(ResourceType type, JsonNode parent, String field) {
        JsonNode node = parent.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw cannotDecode(type, field, "map[string]string", node);
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (var it = node.fields(); it.hasNext();) {
            var entry = it.next();
            if (!entry.getValue().isTextual()) {
                throw cannotDecode(type, field, "string", entry.getValue());
            }
            map.put(entry.getKey(), entry.getValue().textValue());
        }
        return map;
    }

    private static long dataBytes(ResourceType type, Map<String, String> map, boolean base64) {
        if (map == null) {
            return 0;
        }
        long total = 0;
        for (Map.Entry<String, String> entry : map.entrySet()) {
            total += entry.getKey().getBytes(StandardCharsets.UTF_8).length;
            if (base64) {
                try {
                    total += Base64.getDecoder().decode(entry.getValue()).length;
                } catch (IllegalArgumentException e) {
                    throw ApiException.undecodable(type.kind(), type.version(), "illegal base64 data in "
                            + "value of key \"" + entry.getKey() + "\"");
                }
            } else {
                total += entry.getValue().getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return total;
    }

    private static ApiException cannotDecode(ResourceType type, String field, String expected, JsonNode actual) {
        return ApiException.undecodable(type.kind(), type.version(), "json: cannot unmarshal "
                + actual.getNodeType().name().toLowerCase() + " into Go struct field " + field + " of type " + expected);
    }

    private static Cause causeOf(ConstraintViolation<?> violation) {
        Map<String, Object> attributes = violation.getConstraintDescriptor().getAttributes();
        String field = fieldPath(violation.getPropertyPath(), Boolean.TRUE.equals(attributes.get("keyInPath")));
        if (attributes.get("field") instanceof String override && !override.isEmpty()) {
            field = override;
        }
        if (violation.getConstraintDescriptor().getAnnotation() instanceof MaxBytes maxBytes) {
            return Cause.tooLong(field, maxBytes.value());
        }
        Object problem = violation.unwrap(HibernateConstraintViolation.class).getDynamicPayload(String.class);
        return Cause.invalid(field, violation.getInvalidValue(),
                problem instanceof String text ? text : violation.getMessage());
    }

    /** {@code metadata.labels<K>[k].<map key>} becomes {@code metadata.labels} (or {@code data[k]}). */
    private static String fieldPath(Path path, boolean keyInPath) {
        StringBuilder field = new StringBuilder();
        for (Path.Node node : path) {
            if (node.getKind() == ElementKind.CONTAINER_ELEMENT) {
                if (keyInPath && node.getKey() != null) {
                    field.append('[').append(node.getKey()).append(']');
                } else if (keyInPath && node.getIndex() != null) {
                    field.append('[').append(node.getIndex()).append(']');
                }
                continue;
            }
            if (node.getKind() == ElementKind.PROPERTY && node.getName() != null) {
                if (keyInPath && node.isInIterable() && node.getKey() != null) {
                    field.append('[').append(node.getKey()).append(']');
                } else if (keyInPath && node.isInIterable() && node.getIndex() != null) {
                    field.append('[').append(node.getIndex()).append(']');
                }
                if (!field.isEmpty()) {
                    field.append('.');
                }
                field.append(node.getName());
            }
        }
        return field.toString();
    }
}
