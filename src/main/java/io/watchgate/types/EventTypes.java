package io.watchgate.types;

import java.util.List;
import java.util.Map;

/**
 * events.k8s.io/v1: the Event as client-go's newer recorder (k8s.io/client-go/tools/events) writes it, a second
 * version of the core Event. As in kube-apiserver, both are one stored object: an Event written at either version
 * is read, listed and watched at both, expires after the same TTL, and counts once.
 */
public final class EventTypes {

    public static final String GROUP = "events.k8s.io";

    public static final ResourceType EVENTS = new ResourceType(GROUP, "v1", "Event", "events", "event", true,
            List.of("ev"), NameRule.DNS1123_SUBDOMAIN,
            // kube's field label conversion: this version's names for the core Event's selectable fields
            Map.ofEntries(
                    Map.entry("regarding.kind", "/involvedObject/kind"),
                    Map.entry("regarding.namespace", "/involvedObject/namespace"),
                    Map.entry("regarding.name", "/involvedObject/name"),
                    Map.entry("regarding.uid", "/involvedObject/uid"),
                    Map.entry("regarding.apiVersion", "/involvedObject/apiVersion"),
                    Map.entry("regarding.resourceVersion", "/involvedObject/resourceVersion"),
                    Map.entry("regarding.fieldPath", "/involvedObject/fieldPath"),
                    Map.entry("reason", "/reason"),
                    Map.entry("reportingController", "/reportingComponent"),
                    Map.entry("source", "/source/component"),
                    Map.entry("type", "/type")),
            // client-go's recorder counts a repeated Event with a strategic merge patch of its series
            true, Map.of("metadata.ownerReferences", "uid"), ResourceType.ALL_VERBS, new UpdateStrategy(true, true),
            Subresources.NONE,
            new EventConversion(GROUP + "/v1", "v1", "events"));

    public static final List<ResourceType> ALL = List.of(EVENTS);

    private EventTypes() {
    }
}
