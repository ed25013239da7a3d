package io.watchgate.api;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/**
 * Where the resource API hangs: the core group under {@code /api/{version}}, the others under {@code /apis}, with
 * the discovery documents at each level.
 */
@Path("/")
public class ApiRoots {

    private final ResourceVerbs verbs;
    private final DiscoveryResponses discovery;

    ApiRoots(ResourceVerbs verbs, DiscoveryResponses discovery) {
        this.verbs = verbs;
        this.discovery = discovery;
    }

    @GET
    @Path("version")
    public Response version() {
        return discovery.version();
    }

    @GET
    @Path("api")
    public Response coreGroup(@Context HttpHeaders headers) {
        return discovery.root(true, headers);
    }

    @GET
    @Path("apis")
    public Response groups(@Context HttpHeaders headers) {
        return discovery.root(false, headers);
    }

    @GET
    @Path("apis/{group}")
    public Response group(@PathParam("group") String group, @Context HttpHeaders headers) {
        return discovery.group(group, headers);
    }

    @Path("api/{version}")
    public ResourceApi core(@PathParam("version") String version) {
        return new ResourceApi("", version, verbs, discovery);
    }

    @Path("apis/{group}/{version}")
    public ResourceApi grouped(@PathParam("group") String group, @PathParam("version") String version) {
        return new ResourceApi(group, version, verbs, discovery);
    }
}
