package io.watchgate.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.RbacAdmission;
import io.watchgate.http.TooLongForAnEventLoop;
import io.watchgate.objects.ObjectApplies;
import io.watchgate.objects.ObjectWrites;
import io.watchgate.openapi.FieldValidation;
import io.watchgate.request.QueryFlags;
import io.watchgate.request.Target;
import io.watchgate.status.ApiException;
import io.watchgate.status.Cause;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.List;

/** The HTTP side of server-side apply: a PATCH of {@code application/apply-patch+yaml}, and its options. */
@ApplicationScoped
public class ApplyVerb {

    private final ObjectApplies applies;
    private final ObjectWrites writes;
    private final RequestBodies requests;
    private final ResponseBodies bodies;
    private final WritePlacement placement;
    private final RbacAdmission admission;
    private final CreateRight createRight;
    private final Json json;

    ApplyVerb(ObjectApplies applies, ObjectWrites writes, RequestBodies requests, ResponseBodies bodies,
            WritePlacement placement, RbacAdmission admission, CreateRight createRight, Json json) {
        this.applies = applies;
        this.writes = writes;
        this.requests = requests;
        this.bodies = bodies;
        this.placement = placement;
        this.admission = admission;
        this.createRight = createRight;
        this.json = json;
    }

    /**
     * Server-side apply: 201 when it creates the object (which takes the right to create as well as to patch), else
     * 200. A body that starts as JSON is read as JSON (kubectl sends JSON), anything else as YAML.
     */
    Uni<Response> apply(Target target, UserInfo user, String name, UriInfo uri, HttpHeaders headers,
            byte[] body, Representation representation, boolean force) {
        String fieldManager = uri.getQueryParameters().getFirst("fieldManager");
        if (fieldManager == null || fieldManager.isEmpty()) {
            throw ApiException.invalid("meta.k8s.io", "PatchOptions", "", List.of(Cause.required("fieldManager",
                    "is required for apply patch")));
        }
        if (target.scale()) {
            throw new ApiException(415, "UnsupportedMediaType", "server-side apply is not served on the scale "
                    + "subresource: apply spec.replicas to the object, or patch the scale with a merge patch");
        }
        FieldValidation validation = FieldValidation.parse(uri.getQueryParameters().getFirst("fieldValidation"),
                "PatchOptions");
        boolean dryRun = QueryFlags.dryRun(uri.getQueryParameters().get("dryRun"), "PatchOptions");
        String namespace = target.namespace() == null ? "" : target.namespace();
        ObjectApplies.Options options = new ObjectApplies.Options(FieldManagers.of(uri, headers, "PatchOptions"), force,
                dryRun, () -> createRight.require(target, user, name));
        long bytes = Math.max(body == null ? 0 : body.length, writes.storedBytes(target.type(), namespace, name));
        return placement.run(bytes, () -> {
            byte[] bytesSent = requests.read(body);
            boolean yaml = !startsAsJson(bytesSent);
            if (yaml && Context.isOnEventLoopThread()) {
                throw new TooLongForAnEventLoop("reading a YAML body"); // several times JSON's cost: on a worker
            }
            // for an apply, fieldValidation looks for keys the document repeats (the schema judges the rest)
            List<String> warnings = new ArrayList<>();
            JsonNode config;
            if (validation == FieldValidation.IGNORE) {
                config = yaml ? json.parseYaml(bytesSent) : json.parse(bytesSent);
            } else {
                Json.Parsed parsed = json.parseNotingRepeatedKey(bytesSent, yaml);
                if (parsed.repeatedKey() != null) {
                    if (validation == FieldValidation.STRICT) {
                        throw ApiException.badRequest("error strict decoding patch: " + parsed.repeatedKey());
                    }
                    warnings.add(parsed.repeatedKey());
                }
                config = parsed.tree();
            }
            return WriteAnswers.answer(applies.apply(target.type(), namespace, name, config, options, target.status(),
                    result -> admission.admit(user, target.type(), namespace, name, result)),
                    applied -> WriteAnswers.withWarnings(bodies.written(target.type(), applied.created() ? 201 : 200,
                            applied.object(), representation), warnings));
        });
    }

    private static boolean startsAsJson(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return b == '{';
            }
        }
        return false;
    }
}
