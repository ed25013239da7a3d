package io.watchgate.authz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Context;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.rbac.EscalationGuard;
import io.watchgate.http.TooLongForAnEventLoop;
import io.watchgate.objects.ObjectReads;
import io.watchgate.objects.RbacDefaults;
import io.watchgate.store.Store;
import io.watchgate.store.StoredObject;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Escalation prevention on the write path, as kube-apiserver's RBAC storage does it: a Role or ClusterRole may only
 * grant what its writer holds (or may {@code escalate}), and a binding only bind a role its writer holds (or may
 * {@code bind}). Called with each object a create, update or patch is about to store, after authorization let the
 * write itself through.
 */
@ApplicationScoped
public class RbacAdmission {

    private final Authorization authorization;
    private final EscalationGuard guard;
    private final Store store;

    RbacAdmission(Authorization authorization, EscalationGuard guard, Store store) {
        this.authorization = authorization;
        this.guard = guard;
        this.store = store;
    }

    /**
     * @param name   the name in the request's path: empty for a create
     * @param object the object about to be stored (a create's or update's body, a patch's result)
     */
    public void admit(UserInfo user, ResourceType type, String namespace, String name, JsonNode object) {
        if (!RbacTypes.isRbac(type) || authorization.alwaysAllows()) {
            return;
        }
        if (Context.isOnEventLoopThread()) {
            // the check costs what the writer holds times what it asks for: RBAC writes (rare) go to a worker
            throw new TooLongForAnEventLoop("checking a write of RBAC permissions for escalation");
        }
        JsonNode checked = object;
        if (object instanceof ObjectNode written) {
            // checked as it will be stored: a roleRef without its apiGroup names the RBAC group, as kube defaults it
            checked = written.deepCopy();
            RbacDefaults.apply(type, (ObjectNode) checked);
        }
        StoredObject previous = name.isEmpty() ? null : store.latest(ObjectReads.key(type, namespace, name));
        guard.admit(authorization, user, type, namespace, name, checked, previous == null ? null : previous.tree());
    }
}
