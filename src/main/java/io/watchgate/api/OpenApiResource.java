package io.watchgate.api;

import io.watchgate.openapi.OpenApiDocuments;
import io.watchgate.status.ApiException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code /openapi/v2} and {@code /openapi/v3}, in JSON (kubectl's protobuf request for v2 gets 406). */
@Path("/openapi")
public class OpenApiResource {

    private final OpenApiDocuments documents;

    OpenApiResource(OpenApiDocuments documents) {
        this.documents = documents;
    }

    @GET
    @Path("v2")
    public Response v2(@Context HttpHeaders headers) {
        MediaTypes.requireJsonAcceptable(headers);
        return json(documents.v2());
    }

    @GET
    @Path("v3")
    public Response v3Index(@Context HttpHeaders headers) {
        MediaTypes.requireJsonAcceptable(headers);
        return json(documents.v3Index());
    }

    @GET
    @Path("v3/api/{version}")
    public Response v3Core(@PathParam("version") String version, @Context HttpHeaders headers) {
        return v3("api/" + version, headers);
    }

    @GET
    @Path("v3/apis/{group}/{version}")
    public Response v3Group(@PathParam("group") String group, @PathParam("version") String version,
            @Context HttpHeaders headers) {
        return v3("apis/" + group + "/" + version, headers);
    }

    private Response v3(String groupVersion, HttpHeaders headers) {
        MediaTypes.requireJsonAcceptable(headers);
        return json(documents.v3(groupVersion).orElseThrow(ApiException::noSuchPath));
    }

    private static Response json(String body) {
        return Response.ok(body, MediaType.APPLICATION_JSON_TYPE).build();
    }
}
