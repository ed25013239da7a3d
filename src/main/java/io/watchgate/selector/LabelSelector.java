package io.watchgate.selector;

import io.watchgate.selector.Requirement.Operator;
import io.watchgate.validation.IdentifierSyntax;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A parsed label selector in Kubernetes' full syntax: {@code a=b}, {@code a==b}, {@code a!=b},
 * {@code a in (b,c)}, {@code a notin (b)}, {@code a}, {@code !a}, {@code a>1}, {@code a<1}, joined by commas
 * (logical and).
 */
public record LabelSelector(List<Requirement> requirements) {

    public static final LabelSelector EVERYTHING = new LabelSelector(List.of());

    public boolean isEverything() {
        return requirements.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        return matches(labels::get);
    }

    /** @param labels an object's label value by key, null for none: read in place, not copied per object */
    public boolean matches(Function<String, String> labels) {
        for (Requirement requirement : requirements) {
            if (!requirement.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    public static LabelSelector parse(String text) {
        if (text == null || text.isBlank()) {
            return EVERYTHING;
        }
        return new LabelSelector(new Parser(text).parse());
    }

    private static final Set<String> SYMBOLS = Set.of("!", "!=", "=", "==", "(", ")", ",", "<", ">");

    private static final class Parser {
        private final String text;
        private final List<String> tokens = new ArrayList<>();
        private int next;

        Parser(String text) {
            this.text = text;
            tokenize();
        }

        List<Requirement> parse() {
            List<Requirement> requirements = new ArrayList<>();
            while (true) {
                requirements.add(requirement());
                if (atEnd()) {
                    return requirements;
                }
                expect(",");
            }
        }

        private Requirement requirement() {
            if (accept("!")) {
                return validated(new Requirement(key(), Operator.DOES_NOT_EXIST, Set.of()));
            }
            String key = key();
            if (atEnd() || peek().equals(",")) {
                return validated(new Requirement(key, Operator.EXISTS, Set.of()));
            }
            String op = take();
            return validated(switch (op) {
                case "=", "==" -> new Requirement(key, Operator.EQUALS, Set.of(optionalValue()));
                case "!=" -> new Requirement(key, Operator.NOT_EQUALS, Set.of(optionalValue()));
                case ">" -> new Requirement(key, Operator.GREATER_THAN, Set.of(integerValue()));
                case "<" -> new Requirement(key, Operator.LESS_THAN, Set.of(integerValue()));
                case "in" -> new Requirement(key, Operator.IN, valueSet(op));
                case "notin" -> new Requirement(key, Operator.NOT_IN, valueSet(op));
                default -> throw error("found '" + Quoted.of(op) + "', expected: in, notin, =, ==, !=, gt, lt");
            });
        }

        private String key() {
            if (atEnd()) {
                throw error("found '', expected: identifier");
            }
            String key = take();
            if (isSymbol(key)) {
                throw error("found '" + Quoted.of(key) + "', expected: identifier");
            }
            return key;
        }

        private String optionalValue() {
            if (atEnd() || peek().equals(",")) {
                return "";
            }
            String value = take();
            if (isSymbol(value)) {
                throw error("found '" + Quoted.of(value) + "', expected: identifier");
            }
            return value;
        }

        private String integerValue() {
            String value = optionalValue();
            try {
                Long.parseLong(value);
                return value;
            } catch (NumberFormatException e) {
                throw error("for 'Gt', 'Lt' operators, the value must be an integer");
            }
        }

        private Set<String> valueSet(String op) {
            expect("(");
            Set<String> values = new HashSet<>();
            if (accept(")")) {
                throw error("for '" + op + "' operator, values set can't be empty");
            }
            while (true) {
                values.add(optionalValueInSet());
                if (accept(")")) {
                    return values;
                }
                expect(",");
            }
        }

        private String optionalValueInSet() {
            if (!atEnd() && (peek().equals(",") || peek().equals(")"))) {
                return "";
            }
            return optionalValue();
        }

        private Requirement validated(Requirement requirement) {
            String keyProblem = IdentifierSyntax.qualifiedNameProblem(requirement.key());
            if (keyProblem != null) {
                throw error("invalid label key \"" + Quoted.of(requirement.key()) + "\": " + keyProblem);
            }
            if (requirement.operator() != Operator.GREATER_THAN && requirement.operator() != Operator.LESS_THAN) {
                for (String value : requirement.values()) {
                    String valueProblem = IdentifierSyntax.labelValueProblem(value);
                    if (valueProblem != null) {
                        throw error("invalid label value: \"" + Quoted.of(value) + "\": " + valueProblem);
                    }
                }
            }
            return requirement;
        }

        private void tokenize() {
            int i = 0;
            while (i < text.length()) {
                char c = text.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (text.startsWith("!=", i) || text.startsWith("==", i)) {
                    tokens.add(text.substring(i, i + 2));
                    i += 2;
                } else if ("!=(),<>".indexOf(c) >= 0) {
                    tokens.add(String.valueOf(c));
                    i++;
                } else {
                    int start = i;
                    while (i < text.length() && !Character.isWhitespace(text.charAt(i))
                            && "!=(),<>".indexOf(text.charAt(i)) < 0) {
                        i++;
                    }
                    tokens.add(text.substring(start, i));
                }
            }
        }

        private static boolean isSymbol(String token) {
            return SYMBOLS.contains(token);
        }

        private boolean atEnd() {
            return next >= tokens.size();
        }

        private String peek() {
            return tokens.get(next);
        }

        private String take() {
            return tokens.get(next++);
        }

        private boolean accept(String token) {
            if (!atEnd() && peek().equals(token)) {
                next++;
                return true;
            }
            return false;
        }

        private void expect(String token) {
            if (!accept(token)) {
                throw error("found '" + (atEnd() ? "" : Quoted.of(peek())) + "', expected: '" + token + "'");
            }
        }

        private SelectorException error(String problem) {
            return new SelectorException("unable to parse requirement: " + problem + " in label selector \""
                    + Quoted.of(text) + "\"");
        }
    }
}
