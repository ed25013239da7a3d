package io.watchgate.authn;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code jwt} entry of kube's AuthenticationConfiguration: the issuer whose tokens are accepted, for which
 * audiences, with which keys, and how claims map to the user. Keys come from the issuer's discovery document, as in
 * kube ({@code issuer.discoveryURL}, {@code issuer.certificateAuthority}), or from a JWKS file
 * ({@code issuer.jwksFile}, watchgate's own field, for issuers the server cannot reach).
 */
record JwtIssuer(String url, List<String> audiences, Optional<Path> jwksFile, Optional<String> discoveryUrl,
        Optional<String> certificateAuthority, String usernameClaim, String usernamePrefix,
        Optional<String> groupsClaim, String groupsPrefix, Optional<String> uidClaim,
        Map<String, String> requiredClaims) {

    /** An entry as kube's v1beta1/v1 schema writes it; an IllegalArgumentException naming the field otherwise. */
    static JwtIssuer of(JsonNode jwt, int index, Path relativeTo) {
        String at = "jwt[" + index + "]";
        JsonNode issuer = jwt.path("issuer");
        String url = text(issuer, "url", at + ".issuer.url");
        if (!url.startsWith("https://")) {
            throw new IllegalArgumentException(at + ".issuer.url: must use the https scheme, got \"" + url + "\"");
        }
        List<String> audiences = new ArrayList<>();
        issuer.path("audiences").forEach(audience -> audiences.add(audience.asText()));
        if (audiences.isEmpty()) {
            throw new IllegalArgumentException(at + ".issuer.audiences: at least one audience is required");
        }
        Optional<Path> jwks = issuer.hasNonNull("jwksFile")
                ? Optional.of(relativeTo.resolveSibling(text(issuer, "jwksFile", at + ".issuer.jwksFile")))
                : Optional.empty();
        Optional<String> discovery = issuer.hasNonNull("discoveryURL")
                ? Optional.of(text(issuer, "discoveryURL", at + ".issuer.discoveryURL")) : Optional.empty();
        if (discovery.isPresent() && !discovery.get().startsWith("https://")) {
            throw new IllegalArgumentException(at + ".issuer.discoveryURL: must use the https scheme, got \""
                    + discovery.get() + "\"");
        }
        if (discovery.isPresent() && jwks.isPresent()) {
            throw new IllegalArgumentException(at + ".issuer: jwksFile and discoveryURL exclude each other");
        }
        if (discovery.isPresent() && discovery.get().equals(url)) {
            throw new IllegalArgumentException(at + ".issuer.discoveryURL: must differ from url (as kube requires)");
        }
        Optional<String> authority = issuer.hasNonNull("certificateAuthority")
                ? Optional.of(text(issuer, "certificateAuthority", at + ".issuer.certificateAuthority"))
                : Optional.empty();
        if (authority.isPresent() && jwks.isPresent()) {
            throw new IllegalArgumentException(at + ".issuer: certificateAuthority is for discovery; with jwksFile "
                    + "nothing is fetched");
        }
        JsonNode username = jwt.at("/claimMappings/username");
        String usernameClaim = text(username, "claim", at + ".claimMappings.username.claim");
        if (!username.has("prefix")) {
            throw new IllegalArgumentException(at + ".claimMappings.username.prefix: required when claim is set "
                    + "(\"\" for none)");
        }
        JsonNode groups = jwt.at("/claimMappings/groups");
        Optional<String> groupsClaim = groups.hasNonNull("claim") ? Optional.of(groups.get("claim").asText())
                : Optional.empty();
        if (groupsClaim.isPresent() && !groups.has("prefix")) {
            throw new IllegalArgumentException(at + ".claimMappings.groups.prefix: required when claim is set "
                    + "(\"\" for none)");
        }
        JsonNode uid = jwt.at("/claimMappings/uid");
        Map<String, String> required = new java.util.LinkedHashMap<>();
        for (JsonNode rule : jwt.path("claimValidationRules")) {
            if (!rule.hasNonNull("claim") || !rule.hasNonNull("requiredValue")) {
                throw new IllegalArgumentException(at + ".claimValidationRules: only claim with requiredValue is "
                        + "supported (CEL expressions are not)");
            }
            required.put(rule.get("claim").asText(), rule.get("requiredValue").asText());
        }
        return new JwtIssuer(url, List.copyOf(audiences), jwks, discovery, authority, usernameClaim,
                username.get("prefix").asText(),
                groupsClaim, groupsClaim.isPresent() ? groups.get("prefix").asText() : "",
                uid.hasNonNull("claim") ? Optional.of(uid.get("claim").asText()) : Optional.empty(),
                Map.copyOf(required));
    }

    private static String text(JsonNode node, String field, String name) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException(name + ": required");
        }
        return value.asText();
    }
}
