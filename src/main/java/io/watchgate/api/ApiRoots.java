package io.watchgate.api;

import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** Where the resource API hangs: the core group under {@code /api/{version}}, the others under {@code /apis}. */
@Path("/")
public class ApiRoots {

    private final ResourceVerbs verbs;

    ApiRoots(ResourceVerbs verbs) {
        this.verbs = verbs;
    }

    @Path("api/{version}")
    public ResourceApi core(@PathParam("version") String version) {
        return new ResourceApi("", version, verbs);
    }

    @Path("apis/{group}/{version}")
    public ResourceApi grouped(@PathParam("group") String group, @PathParam("version") String version) {
        return new ResourceApi(group, version, verbs);
    }
}
