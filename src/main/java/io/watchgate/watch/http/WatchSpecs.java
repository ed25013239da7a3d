package io.watchgate.watch.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.watchgate.crd.CustomResourceTypes;
import io.watchgate.protobuf.ProtobufObjects;
import io.watchgate.request.RequestInfo;
import io.watchgate.request.Target;
import io.watchgate.tables.Tables;
import io.watchgate.types.ResourceType;
import io.watchgate.types.ResourceTypes;
import io.watchgate.watch.ObjectRendering;
import io.watchgate.watch.ProtobufRendering;
import io.watchgate.watch.TableRendering;
import io.watchgate.watch.VersionRendering;
import io.watchgate.watch.WatchSpec;
import io.watchgate.watch.WireFormat;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Function;

/**
 * What a watch request asks for, from its path and query: the served type it watches (one the resource API would
 * serve, CRDs included), how its objects are shown, and its parameters. Shared by single watches and the watches of
 * a stream, so that a watch means the same in both.
 */
@ApplicationScoped
public class WatchSpecs {

    private final ResourceTypes types;
    private final Tables tables;
    private final ProtobufObjects protobuf;
    private final CustomResourceTypes customResources;
    private final ObjectMapper mapper;

    WatchSpecs(ResourceTypes types, Tables tables, ProtobufObjects protobuf, CustomResourceTypes customResources,
            ObjectMapper mapper) {
        this.types = types;
        this.tables = tables;
        this.protobuf = protobuf;
        this.customResources = customResources;
        this.mapper = mapper;
    }

    /** The served type and namespace a watch's path names, or 404 (405 for a type that cannot be watched). */
    Target target(RequestInfo info) {
        Target target = info.namesObject()
                ? Target.resolveObject(types, info.group(), info.version(), info.scopeNamespace(), info.resource())
                : Target.resolve(types, info.group(), info.version(), info.scopeNamespace(), info.resource());
        target.allowing("watch");
        return target;
    }

    boolean servesProtobuf(ResourceType type) {
        return protobuf.serves(type);
    }

    /**
     * @param query        the watch's query parameters (null when absent)
     * @param tableVersion the meta.k8s.io version of the Table rows it is sent, or null for objects
     * @param lastEventId  an EventSource's {@code Last-Event-ID}, or null
     */
    WatchSpec spec(RequestInfo info, Target target, Function<String, String> query, WireFormat format,
            String tableVersion, String lastEventId) {
        ObjectRendering rendering = rendering(target.type(), format, tableVersion, query.apply("includeObject"));
        return WatchRequests.parse(target.type(), target.namespace(), info.namesObject() ? info.name() : null, query,
                lastEventId, rendering);
    }

    /** How the watch shows its objects: in protobuf, as Table rows, converted to its version, or as stored. */
    private ObjectRendering rendering(ResourceType type, WireFormat format, String tableVersion,
            String includeObject) {
        if (format == WireFormat.PROTOBUF_STREAM) {
            return new ProtobufRendering(protobuf, type);
        }
        if (tableVersion != null) {
            return new TableRendering(tables, type, tableVersion, Tables.IncludeObject.parse(includeObject));
        }
        // custom objects are stored at their definition's storage version, which may not be this one (or may change);
        // a type that shares another's storage shows that type's objects converted
        return customResources.definitionOf(type).isPresent() || type.sharesStorage()
                ? new VersionRendering(type, mapper)
                : ObjectRendering.AS_STORED;
    }
}
