package io.watchgate.api;

import io.watchgate.objects.Deletions;
import io.watchgate.objects.ObjectReads;
import io.watchgate.objects.ObjectWrites;
import io.watchgate.schema.ResourceTypes;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** Where the resource API hangs: the core group under {@code /api/{version}}, the others under {@code /apis}. */
@Path("/")
public class ApiRoots {

    private final ResourceTypes types;
    private final ObjectReads reads;
    private final ObjectWrites writes;
    private final Deletions deletions;
    private final Json json;
    private final ResponseBodies bodies;

    ApiRoots(ResourceTypes types, ObjectReads reads, ObjectWrites writes, Deletions deletions, Json json,
            ResponseBodies bodies) {
        this.types = types;
        this.reads = reads;
        this.writes = writes;
        this.deletions = deletions;
        this.json = json;
        this.bodies = bodies;
    }

    @Path("api/{version}")
    public ResourceApi core(@PathParam("version") String version) {
        return new ResourceApi("", version, types, reads, writes, deletions, json, bodies);
    }

    @Path("apis/{group}/{version}")
    public ResourceApi grouped(@PathParam("group") String group, @PathParam("version") String version) {
        return new ResourceApi(group, version, types, reads, writes, deletions, json, bodies);
    }
}
