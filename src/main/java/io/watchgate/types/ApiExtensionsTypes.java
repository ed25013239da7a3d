package io.watchgate.types;

import java.util.List;
import java.util.Map;

/** The built-in types of apiextensions.k8s.io: CustomResourceDefinitions, through which users add types. */
public final class ApiExtensionsTypes {

    public static final ResourceType CUSTOM_RESOURCE_DEFINITIONS = new ResourceType("apiextensions.k8s.io", "v1",
            "CustomResourceDefinition", "customresourcedefinitions", "customresourcedefinition", false,
            List.of("crd", "crds"), NameRule.DNS1123_SUBDOMAIN, Map.of(), false, Map.of(), ResourceType.ALL_VERBS,
            UpdateStrategy.CONDITIONAL);

    private ApiExtensionsTypes() {
    }

    public static boolean isCustomResourceDefinitions(ResourceType type) {
        return type.group().equals(CUSTOM_RESOURCE_DEFINITIONS.group())
                && type.plural().equals(CUSTOM_RESOURCE_DEFINITIONS.plural());
    }
}
