package io.watchgate.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every property of every {@code @ConfigMapping} is in the README's Configuration table, with its default. */
class ConfigurationDocsTest {

    private static final Path CLASSES = Path.of("target/classes");

    private static List<Class<?>> mappings() throws IOException, ClassNotFoundException {
        List<Class<?>> mappings = new ArrayList<>();
        try (Stream<Path> files = Files.walk(CLASSES.resolve("io/watchgate"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = CLASSES.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = Class.forName(name, false, ConfigurationDocsTest.class.getClassLoader());
                if (type.isAnnotationPresent(ConfigMapping.class)) {
                    mappings.add(type);
                }
            }
        }
        return mappings;
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase();
    }

    @Test
    void everyPropertyIsDocumentedWithItsDefault() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        String table = readme.substring(readme.indexOf("## Configuration"));
        table = table.substring(0, table.indexOf("\n## ", 5));
        List<Class<?>> mappings = mappings();
        assertTrue(mappings.size() >= 8, "found " + mappings);
        for (Class<?> mapping : mappings) {
            String prefix = mapping.getAnnotation(ConfigMapping.class).prefix();
            for (Method property : mapping.getDeclaredMethods()) {
                if (property.isDefault() || Modifier.isStatic(property.getModifiers())
                        || property.getParameterCount() > 0) {
                    continue;
                }
                String key = prefix + "." + kebab(property.getName());
                String shortKey = "`" + kebab(property.getName()) + "`";
                List<String> rows = table.lines().filter(l -> l.startsWith("|"))
                        .filter(l -> l.contains("`" + key + "`") || (l.contains(shortKey) && l.contains(prefix + ".")))
                        .toList();
                assertFalse(rows.isEmpty(), key + " is not in the README's Configuration table");
                WithDefault fallback = property.getAnnotation(WithDefault.class);
                if (fallback != null) {
                    assertTrue(rows.get(0).contains("`" + fallback.value() + "`"),
                            key + ": the README does not give its default " + fallback.value() + ": " + rows.get(0));
                }
            }
        }
    }
}
