package io.watchgate.tables;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JSONPath of a CustomResourceDefinition's printer column, in the forms such columns use:
 * {@code .spec.replicas}, {@code .spec.items[0].name}, {@code .status.conditions[?(@.type=="Ready")].status}.
 */
final class JsonPathCell {

    private static final Pattern STEP = Pattern.compile(
            "\\.([^.\\[]+)|\\[(\\d+)]|\\[\\?\\(@\\.([^=!]+?)\\s*==\\s*[\"']([^\"']*)[\"']\\)]");

    private final String path;

    JsonPathCell(String path) {
        this.path = path;
    }

    /** The node the path reaches in {@code object}, or a missing node. */
    JsonNode read(JsonNode object) {
        Matcher m = STEP.matcher(path);
        JsonNode current = object;
        int at = 0;
        // each step is matched where the last one ended, never searched for further on: linear in the path
        while (at < path.length() && m.region(at, path.length()).lookingAt()) {
            if (m.group(1) != null) {
                current = current.path(m.group(1));
            } else if (m.group(2) != null) {
                current = m.group(2).length() > 9 ? MissingNode.getInstance()
                        : current.path(Integer.parseInt(m.group(2)));
            } else {
                JsonNode found = MissingNode.getInstance();
                for (JsonNode element : current) {
                    if (element.path(m.group(3).trim()).asText().equals(m.group(4))) {
                        found = element;
                        break;
                    }
                }
                current = found;
            }
            at = m.end();
        }
        return at == path.length() ? current : MissingNode.getInstance();
    }
}
