package io.watchgate.audit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.watchgate.authn.UserInfo;
import io.watchgate.request.RequestInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * One request as kube-apiserver's audit log writes it at level Metadata ({@code audit.k8s.io/v1} Event, stage
 * ResponseComplete): who (user, and the user impersonated), what (verb, URI, objectRef), from where, the answer's
 * code, and when. Never a body: no Secret's data reaches the log. Beyond kube, annotations give the latency and,
 * when the request named one, the resourceVersion it asked from.
 */
record AuditEvent(String auditId, String stage, String requestUri, RequestInfo request, UserInfo user,
        UserInfo impersonated, String sourceIp, String userAgent, int code, String resourceVersion,
        Instant received, Instant completed, long latencyMicros) {

    /** URIs and user agents are cut to this many characters: a line stays bounded whatever the client sent. */
    static final int MAX_TEXT = 4096;

    private static final JsonFactory JSON = new JsonFactory();
    /** kube's MicroTime (RFC 3339 with exactly six fractional digits), which Go's audit readers parse. */
    private static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    byte[] line() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("kind", "Event");
            json.writeStringField("apiVersion", "audit.k8s.io/v1");
            json.writeStringField("level", "Metadata");
            json.writeStringField("auditID", auditId);
            json.writeStringField("stage", stage);
            json.writeStringField("requestURI", clip(requestUri));
            json.writeStringField("verb", request.verb());
            if (user != null) {
                json.writeFieldName("user");
                writeUser(json, user);
            }
            if (impersonated != null) {
                json.writeFieldName("impersonatedUser");
                writeUser(json, impersonated);
            }
            json.writeArrayFieldStart("sourceIPs");
            json.writeString(sourceIp);
            json.writeEndArray();
            if (userAgent != null) {
                json.writeStringField("userAgent", clip(userAgent));
            }
            if (request.resourceRequest() && !request.resource().isEmpty()) {
                writeObjectRef(json);
            }
            json.writeObjectFieldStart("responseStatus");
            json.writeObjectFieldStart("metadata");
            json.writeEndObject();
            json.writeNumberField("code", code);
            json.writeEndObject();
            json.writeStringField("requestReceivedTimestamp", MICRO_TIME.format(received));
            json.writeStringField("stageTimestamp", MICRO_TIME.format(completed));
            json.writeObjectFieldStart("annotations");
            json.writeStringField("watchgate.io/latency", latencyMicros + "us");
            if (resourceVersion != null) {
                json.writeStringField("watchgate.io/request-resource-version", clip(resourceVersion));
            }
            json.writeEndObject();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.write('\n');
        return out.toByteArray();
    }

    private void writeObjectRef(JsonGenerator json) throws IOException {
        json.writeObjectFieldStart("objectRef");
        json.writeStringField("resource", request.resource());
        writeIfPresent(json, "namespace", request.namespace());
        writeIfPresent(json, "name", request.name());
        writeIfPresent(json, "apiGroup", request.group());
        writeIfPresent(json, "apiVersion", request.version());
        writeIfPresent(json, "subresource", request.subresource());
        json.writeEndObject();
    }

    private static void writeUser(JsonGenerator json, UserInfo user) throws IOException {
        json.writeStartObject();
        json.writeStringField("username", user.name());
        writeIfPresent(json, "uid", user.uid());
        json.writeArrayFieldStart("groups");
        for (String group : user.groups()) {
            json.writeString(group);
        }
        json.writeEndArray();
        if (!user.extra().isEmpty()) {
            json.writeObjectFieldStart("extra");
            for (Map.Entry<String, List<String>> entry : user.extra().entrySet()) {
                json.writeArrayFieldStart(entry.getKey());
                for (String value : entry.getValue()) {
                    json.writeString(value);
                }
                json.writeEndArray();
            }
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private static void writeIfPresent(JsonGenerator json, String field, String value) throws IOException {
        if (value != null && !value.isEmpty()) {
            json.writeStringField(field, value);
        }
    }

    private static String clip(String text) {
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT);
    }
}
