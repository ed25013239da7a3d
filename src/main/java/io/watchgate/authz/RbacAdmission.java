package io.watchgate.authz;

import com.fasterxml.jackson.databind.JsonNode;
import io.watchgate.authn.UserInfo;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;

/** Placeholder until the escalation checks land. */
@ApplicationScoped
public class RbacAdmission {

    public void admit(UserInfo user, ResourceType type, String namespace, JsonNode object) {
    }
}
