package io.watchgate.validation;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * Kubernetes' rules for names, label keys and values and data keys, with the messages kube-apiserver gives.
 * Each check returns the problem in words, or null when the text is valid.
 */
public enum IdentifierSyntax {
    DNS1123_SUBDOMAIN {
        @Override
        public String problem(String text) {
            return dns1123Subdomain(text);
        }
    },
    DNS1123_LABEL {
        @Override
        public String problem(String text) {
            if (text.length() > 63) {
                return "must be no more than 63 characters";
            }
            return DNS1123_LABEL_PATTERN.matcher(text).matches() ? null
                    : "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
                            + "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
                            + "regex used for validation is '" + DNS1123_LABEL_REGEX + "')";
        }
    },
    DNS1035_LABEL {
        @Override
        public String problem(String text) {
            if (text.length() > 63) {
                return "must be no more than 63 characters";
            }
            return DNS1035_LABEL_PATTERN.matcher(text).matches() ? null
                    : "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                            + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
                            + "'abc-123', regex used for validation is '" + DNS1035_LABEL_REGEX + "')";
        }
    },
    /** RBAC object names, as apimachinery's path.IsValidPathSegmentName checks them. */
    PATH_SEGMENT {
        @Override
        public String problem(String text) {
            if (text.equals(".") || text.equals("..")) {
                return "may not be '" + text + "'";
            }
            return prefixProblem(text);
        }

        /** A prefix may be "." (IsValidPathSegmentPrefix): a generated name then has more after it. */
        @Override
        public String prefixProblem(String prefix) {
            for (String illegal : new String[] { "/", "%" }) {
                if (prefix.contains(illegal)) {
                    return "may not contain '" + illegal + "'";
                }
            }
            return null;
        }
    },
    /** Label and annotation keys: an optional DNS subdomain prefix and '/', then a name part. */
    QUALIFIED_NAME {
        @Override
        public String problem(String text) {
            return qualifiedNameProblem(text);
        }
    },
    LABEL_VALUE {
        @Override
        public String problem(String text) {
            return labelValueProblem(text);
        }
    },
    /** Finalizers: a qualified name with a domain prefix, or one of Kubernetes' own. */
    FINALIZER {
        @Override
        public String problem(String text) {
            String problem = qualifiedNameProblem(text);
            if (problem == null && !text.contains("/") && !STANDARD_FINALIZERS.contains(text)) {
                return "name is neither a standard finalizer name nor is it fully qualified";
            }
            return problem;
        }
    },
    /** Keys of ConfigMap and Secret data. */
    CONFIG_KEY {
        @Override
        public String problem(String text) {
            if (text.length() > 253) {
                return "must be no more than 253 characters";
            }
            if (!CONFIG_KEY_PATTERN.matcher(text).matches()) {
                return "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. "
                        + "'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '"
                        + CONFIG_KEY_REGEX + "')";
            }
            if (text.equals(".")) {
                return "must not be '.'";
            }
            if (text.equals("..")) {
                return "must not be '..'";
            }
            return text.startsWith("..") ? "must not start with '..'" : null;
        }
    };

    private static final Set<String> STANDARD_FINALIZERS = Set.of("kubernetes", "orphan",
            "foregroundDeletion");
    private static final String DNS1123_LABEL_REGEX = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_SUBDOMAIN_REGEX = DNS1123_LABEL_REGEX + "(\\." + DNS1123_LABEL_REGEX + ")*";
    private static final String DNS1035_LABEL_REGEX = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String NAME_PART_REGEX = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String LABEL_VALUE_REGEX = "(" + NAME_PART_REGEX + ")?";
    private static final String CONFIG_KEY_REGEX = "[-._a-zA-Z0-9]+";

    private static final Pattern DNS1123_LABEL_PATTERN = Pattern.compile(DNS1123_LABEL_REGEX);
    private static final Pattern DNS1123_SUBDOMAIN_PATTERN = Pattern.compile(DNS1123_SUBDOMAIN_REGEX);
    private static final Pattern DNS1035_LABEL_PATTERN = Pattern.compile(DNS1035_LABEL_REGEX);
    private static final Pattern NAME_PART_PATTERN = Pattern.compile(NAME_PART_REGEX);
    private static final Pattern LABEL_VALUE_PATTERN = Pattern.compile(LABEL_VALUE_REGEX);
    private static final Pattern CONFIG_KEY_PATTERN = Pattern.compile(CONFIG_KEY_REGEX);

    /** The problem with {@code text} under this rule, or null when it is valid. */
    public abstract String problem(String text);

    /**
     * The problem with a generateName prefix, which may end in '-': checked as Kubernetes does, by masking the
     * trailing dash.
     */
    public String prefixProblem(String prefix) {
        String masked = prefix.length() > 1 && prefix.endsWith("-") ? prefix.substring(0, prefix.length() - 2) + "a"
                : prefix;
        return problem(masked);
    }

    private static String dns1123Subdomain(String text) {
        if (text.length() > 253) {
            return "must be no more than 253 characters";
        }
        return DNS1123_SUBDOMAIN_PATTERN.matcher(text).matches() ? null
                : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                        + "and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
                        + "for validation is '" + DNS1123_SUBDOMAIN_REGEX + "')";
    }

    public static String qualifiedNameProblem(String text) {
        String[] parts = text.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            if (parts[0].isEmpty()) {
                return "prefix part must be non-empty";
            }
            String prefixProblem = dns1123Subdomain(parts[0]);
            if (prefixProblem != null) {
                return "prefix part " + prefixProblem;
            }
            name = parts[1];
        } else {
            return "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and "
                    + "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used "
                    + "for validation is '" + NAME_PART_REGEX + "') with an optional DNS subdomain prefix and '/' "
                    + "(e.g. 'example.com/MyName')";
        }
        if (name.isEmpty()) {
            return "name part must be non-empty";
        }
        if (name.length() > 63) {
            return "name part must be no more than 63 characters";
        }
        return NAME_PART_PATTERN.matcher(name).matches() ? null
                : "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
                        + "an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
                        + "validation is '" + NAME_PART_REGEX + "')";
    }

    public static String labelValueProblem(String text) {
        if (text.length() > 63) {
            return "must be no more than 63 characters";
        }
        return LABEL_VALUE_PATTERN.matcher(text).matches() ? null
                : "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                        + "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  "
                        + "or '12345', regex used for validation is '" + LABEL_VALUE_REGEX + "')";
    }
}
