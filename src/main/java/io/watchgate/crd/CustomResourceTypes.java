package io.watchgate.crd;

import io.quarkus.runtime.StartupEvent;
import io.watchgate.schema.ApiExtensionsTypes;
import io.watchgate.schema.ResourceType;
import io.watchgate.schema.ResourceTypes;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.EventType;
import io.watchgate.store.KeyRange;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Keeps the registry of served types in step with the stored CustomResourceDefinitions: a committed definition
 * serves its versions at once (in the commit that stores it), a changed one serves its current versions, and a
 * deleted one stops serving them.
 */
@ApplicationScoped
public class CustomResourceTypes {

    private final Store store;
    private final ResourceTypes types;

    CustomResourceTypes(Store store, ResourceTypes types) {
        this.store = store;
        this.types = types;
    }

    void start(@Observes StartupEvent startup) {
        store.addCommitListener(this::committed);
        KeyRange definitions = KeyRange.allOf(ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.resource());
        for (StoredObject crd : store.list(definitions, store.currentRevision(), null, Integer.MAX_VALUE,
                object -> true, false).items()) {
            serve(crd);
        }
    }

    private void committed(ChangeEvent event) {
        if (!event.key().resource().equals(ApiExtensionsTypes.CUSTOM_RESOURCE_DEFINITIONS.resource())) {
            return;
        }
        if (event.previous() != null) {
            stopServing(event.previous());
        }
        if (event.type() != EventType.DELETED) {
            serve(event.object());
        }
    }

    private void serve(StoredObject crd) {
        CrdSpec.parse(crd.tree()).servedTypes().forEach(types::register);
    }

    private void stopServing(StoredObject crd) {
        for (ResourceType type : CrdSpec.parse(crd.tree()).servedTypes()) {
            types.unregister(type.group(), type.version(), type.plural());
        }
    }
}
