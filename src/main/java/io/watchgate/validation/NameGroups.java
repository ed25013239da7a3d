package io.watchgate.validation;

import io.watchgate.types.NameRule;

/** Validation groups selecting which name syntax applies; each type's {@link NameRule} picks one. */
public final class NameGroups {

    public interface Dns1123Subdomain {
    }

    public interface Dns1123Label {
    }

    public interface Dns1035Label {
    }

    public interface PathSegment {
    }

    private NameGroups() {
    }

    public static Class<?> of(NameRule rule) {
        return switch (rule) {
            case DNS1123_SUBDOMAIN -> Dns1123Subdomain.class;
            case DNS1123_LABEL -> Dns1123Label.class;
            case DNS1035_LABEL -> Dns1035Label.class;
            case PATH_SEGMENT -> PathSegment.class;
        };
    }
}
