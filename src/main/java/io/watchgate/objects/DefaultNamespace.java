package io.watchgate.objects;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.runtime.StartupEvent;
import io.watchgate.store.Store;
import io.watchgate.types.ResourceTypes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Kubernetes always has a {@code default} namespace; so does watchgate, from the first start on. */
@ApplicationScoped
public class DefaultNamespace {

    void ensure(@Observes StartupEvent event, Store store, ResourceTypes types, ObjectWrites writes) {
        if (store.get(NamespaceLifecycle.key("default"), store.currentRevision()) == null) {
            ObjectNode namespace = JsonNodeFactory.instance.objectNode();
            namespace.putObject("metadata").put("name", "default");
            writes.createAtStart(types.namespaces(), "", namespace);
        }
    }
}
