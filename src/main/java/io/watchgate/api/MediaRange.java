package io.watchgate.api;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One entry of an Accept header: {@code application/json;as=Table;v=v1;g=meta.k8s.io;q=0.9}. Kubernetes
 * negotiates on the type and on the {@code as}, {@code g} and {@code v} parameters.
 *
 * @param type       lower-cased, such as {@code application/json}
 * @param parameters by name, values as sent
 */
public record MediaRange(String type, Map<String, String> parameters, double quality) {

    /** The ranges of an Accept header, in the client's order; blank entries are skipped. */
    public static List<MediaRange> parse(String accept) {
        List<MediaRange> ranges = new ArrayList<>();
        if (accept == null) {
            return ranges;
        }
        for (String range : accept.split(",")) {
            String[] parts = range.split(";");
            if (parts.length == 0 || parts[0].isBlank()) {
                continue;
            }
            Map<String, String> parameters = new TreeMap<>();
            double quality = 1;
            for (int i = 1; i < parts.length; i++) {
                String[] parameter = parts[i].trim().split("=", 2);
                if (parameter.length == 2) {
                    String name = parameter[0].trim();
                    String value = parameter[1].trim();
                    if (name.equals("q")) {
                        quality = parseQuality(value);
                    } else {
                        parameters.put(name, value);
                    }
                }
            }
            ranges.add(new MediaRange(parts[0].trim().toLowerCase(Locale.ROOT), parameters, quality));
        }
        return ranges;
    }

    /** The acceptable ranges, most preferred first: by q-value, then in the client's order; q=0 means "not this". */
    public static List<MediaRange> byPreference(String accept) {
        List<MediaRange> ranges = parse(accept);
        ranges.removeIf(range -> !(range.quality() > 0));
        ranges.sort(Comparator.comparingDouble(MediaRange::quality).reversed());
        return ranges;
    }

    /** {@code application/json}, {@code application/*} or {@code *}{@code /*}. */
    public boolean admitsJson() {
        return type.equals("application/json") || type.equals("application/*") || type.equals("*/*");
    }

    /** The {@code as} parameter: another kind than the resource's own (Table, PartialObjectMetadata...), or null. */
    public String as() {
        return parameters.get("as");
    }

    public String group() {
        return parameters.get("g");
    }

    public String version() {
        return parameters.get("v");
    }

    /** Whether this asks for a meta.k8s.io kind ({@code as}) in a version Kubernetes serves it in (v1, v1beta1). */
    public boolean isMetaKind(String kind) {
        return kind.equals(as()) && "meta.k8s.io".equals(group())
                && ("v1".equals(version()) || "v1beta1".equals(version()));
    }

    private static double parseQuality(String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
