package io.watchgate.validation;

import static io.watchgate.validation.IdentifierSyntax.DNS1035_LABEL;
import static io.watchgate.validation.IdentifierSyntax.DNS1123_LABEL;
import static io.watchgate.validation.IdentifierSyntax.DNS1123_SUBDOMAIN;
import static io.watchgate.validation.IdentifierSyntax.FINALIZER;
import static io.watchgate.validation.IdentifierSyntax.LABEL_VALUE;
import static io.watchgate.validation.IdentifierSyntax.PATH_SEGMENT;
import static io.watchgate.validation.IdentifierSyntax.QUALIFIED_NAME;

import java.util.List;
import java.util.Map;

/** The parts of {@code metadata} Kubernetes validates on every object. */
public record MetadataView(
        @Identifier(value = DNS1123_SUBDOMAIN, groups = NameGroups.Dns1123Subdomain.class)
        @Identifier(value = DNS1123_LABEL, groups = NameGroups.Dns1123Label.class)
        @Identifier(value = DNS1035_LABEL, groups = NameGroups.Dns1035Label.class)
        @Identifier(value = PATH_SEGMENT, groups = NameGroups.PathSegment.class)
        String name,
        Map<@Identifier(QUALIFIED_NAME) String, @Identifier(LABEL_VALUE) String> labels,
        @MaxBytes(262144)
        Map<@Identifier(QUALIFIED_NAME) String, String> annotations,
        List<@Identifier(value = FINALIZER, keyInPath = true) String> finalizers) {
}
