package io.watchgate.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.status.ApiException;
import io.watchgate.status.Causes;
import io.watchgate.types.NameRule;
import io.watchgate.types.ResourceType;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.util.List;
import java.util.Map;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Validation describes the first problems of an object and counts the rest, however many keys are bad. */
class ObjectValidatorBoundsTest {

    private static final ResourceType CONFIG_MAPS = new ResourceType("", "v1", "ConfigMap", "configmaps", "configmap",
            true, List.of(), NameRule.DNS1123_SUBDOMAIN, Map.of(), true, Map.of(), ResourceType.ALL_VERBS);

    private static ValidatorFactory factory;
    private static ObjectValidator validator;

    @BeforeAll
    static void start() {
        factory = Validation.byProvider(HibernateValidator.class).configure()
                .messageInterpolator(new ParameterMessageInterpolator()).buildValidatorFactory();
        validator = new ObjectValidator(factory.getValidator(), factory);
    }

    @AfterAll
    static void stop() {
        factory.close();
    }

    @Test
    void aQuarterOfAMillionBadLabelKeysAreThirtyTwoCausesAndACount() {
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        ObjectNode labels = object.putObject("metadata").put("name", "many").putObject("labels");
        for (int i = 0; i < 250_000; i++) {
            labels.put("-bad" + i, "v");
        }
        ObjectNode data = object.putObject("data");
        for (int i = 0; i < 1000; i++) {
            data.put("bad key " + i, "v");
        }
        ApiException refused = assertThrows(ApiException.class, () -> validator.validate(CONFIG_MAPS, object));
        assertEquals(422, refused.code());
        assertEquals(Causes.MAX, refused.details().causes().size());
        assertTrue(refused.getMessage().endsWith(", and " + (251_000 - 16) + " more errors]"), refused.getMessage()
                .substring(refused.getMessage().length() - 60));
    }

    @Test
    void aFewBadKeysAreEachDescribed() {
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        object.putObject("metadata").put("name", "few").putObject("labels").put("-a", "v").put("-b", "v");
        ApiException refused = assertThrows(ApiException.class, () -> validator.validate(CONFIG_MAPS, object));
        assertEquals(2, refused.details().causes().size());
        assertTrue(refused.getMessage().startsWith("ConfigMap \"few\" is invalid: [metadata.labels: Invalid value: "),
                refused.getMessage());
        assertTrue(refused.getMessage().contains("\"-a\"") && refused.getMessage().contains("\"-b\""));
        assertTrue(!refused.getMessage().contains("more errors"), refused.getMessage());
    }
}
