package io.watchgate.discovery;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' order of API versions: GA before beta before alpha, higher numbers first, and versions that do not
 * look like Kubernetes versions last, alphabetically.
 */
final class VersionPriority {

    private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

    static final Comparator<String> ORDER = Comparator
            .comparingInt(VersionPriority::stability)
            .thenComparing(Comparator.comparing(VersionPriority::major).reversed())
            .thenComparing(Comparator.comparing(VersionPriority::minor).reversed())
            .thenComparing(Comparator.naturalOrder());

    private VersionPriority() {
    }

    private static int stability(String version) {
        Matcher m = KUBE_VERSION.matcher(version);
        if (!m.matches()) {
            return 3;
        }
        return m.group(2) == null ? 0 : m.group(2).equals("beta") ? 1 : 2;
    }

    private static java.math.BigInteger major(String version) {
        Matcher m = KUBE_VERSION.matcher(version);
        return m.matches() ? new java.math.BigInteger(m.group(1)) : java.math.BigInteger.ZERO;
    }

    private static java.math.BigInteger minor(String version) {
        Matcher m = KUBE_VERSION.matcher(version);
        return m.matches() && m.group(3) != null ? new java.math.BigInteger(m.group(3)) : java.math.BigInteger.ZERO;
    }
}
