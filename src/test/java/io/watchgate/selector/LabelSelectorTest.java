package io.watchgate.selector;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LabelSelectorTest {

    private static final Map<String, String> LABELS = Map.of("app", "web", "tier", "frontend", "replicas", "3",
            "example.com/owner", "team-a");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "''                              | true",
            "app=web                         | true",
            "app==web                        | true",
            "app=db                          | false",
            "app!=db                         | true",
            "missing!=x                      | true",
            "app in (web, db)                | true",
            "app in (db)                     | false",
            "app notin (db,cache)            | true",
            "missing notin (db)              | true",
            "app notin (web)                 | false",
            "app                             | true",
            "missing                         | false",
            "!missing                        | true",
            "!app                            | false",
            "app=web,tier=frontend           | true",
            "app=web, tier=backend           | false",
            "example.com/owner=team-a        | true",
            "replicas>2                      | true",
            "replicas<2                      | false",
            "app=web,!missing,tier in (frontend) | true",
            "missing=                        | false",
            "missing!=                       | true",
    })
    void matchesAsKubernetesDoes(String selector, boolean matches) {
        assertTrue(LabelSelector.parse(selector).matches(LABELS) == matches);
    }

    @ParameterizedTest
    @ValueSource(strings = { "app in ()", "app in (web", "app=web,", ",app", "=web", "app=(web)", "app notin web",
            "bad key=x", "app=bad value!", "app>x", "!", "app web" })
    void rejectsWhatDoesNotParse(String selector) {
        assertThrows(SelectorException.class, () -> LabelSelector.parse(selector));
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "  " })
    void emptyMeansEverything(String selector) {
        assertTrue(LabelSelector.parse(selector).isEverything());
        assertFalse(LabelSelector.parse("a").isEverything());
    }
}
