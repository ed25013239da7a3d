package io.watchgate.authz.rbac;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.watchgate.authn.UserInfo;
import io.watchgate.authz.Attributes;
import io.watchgate.store.ChangeEvent;
import io.watchgate.store.Commits;
import io.watchgate.store.MemoryStore;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.types.RbacTypes;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.List;

/**
 * A store holding RBAC objects, with the engine reading it, for tests that state a policy and ask what it allows.
 * JSON is written with single quotes: {@code rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}")}.
 */
final class Rbac {

    static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);

    final MemoryStore store;
    final PolicyFeed feed;
    final RbacAuthorizer authorizer;
    final EscalationGuard guard;

    Rbac() {
        this(new MemoryStore(new ObjectMapper(), 10_000, Long.MAX_VALUE, Clock.systemUTC()), 100);
    }

    Rbac(MemoryStore store, int usersCached) {
        this.store = store;
        this.feed = new PolicyFeed(store, usersCached);
        feed.start();
        this.authorizer = new RbacAuthorizer(feed);
        this.guard = new EscalationGuard(authorizer);
    }

    static ObjectNode json(String singleQuoted) {
        try {
            return (ObjectNode) MAPPER.readTree(singleQuoted);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode rule(String singleQuoted) {
        return json(singleQuoted);
    }

    static ObjectNode user(String name) {
        return json("{'kind':'User','apiGroup':'rbac.authorization.k8s.io','name':'" + name + "'}");
    }

    static ObjectNode group(String name) {
        return json("{'kind':'Group','apiGroup':'rbac.authorization.k8s.io','name':'" + name + "'}");
    }

    static ObjectNode serviceAccount(String namespace, String name) {
        ObjectNode subject = json("{'kind':'ServiceAccount','name':'" + name + "'}");
        if (!namespace.isEmpty()) {
            subject.put("namespace", namespace);
        }
        return subject;
    }

    static UserInfo person(String name, String... groups) {
        return UserInfo.authenticated(name, "", List.of(groups));
    }

    static Attributes get(UserInfo user, String resource, String namespace, String name) {
        return Attributes.resource(user, "get", "", "v1", resource, "", namespace, name);
    }

    static ObjectNode roleObject(String kind, String namespace, String name, ObjectNode... rules) {
        ObjectNode role = json("{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'" + kind + "'}");
        ObjectNode metadata = role.putObject("metadata").put("name", name);
        if (!namespace.isEmpty()) {
            metadata.put("namespace", namespace);
        }
        ArrayNode list = role.putArray("rules");
        for (ObjectNode rule : rules) {
            list.add(rule);
        }
        return role;
    }

    static ObjectNode bindingObject(String kind, String namespace, String name, String roleKind, String roleName,
            ObjectNode... subjects) {
        ObjectNode binding = json("{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'" + kind + "'}");
        ObjectNode metadata = binding.putObject("metadata").put("name", name);
        if (!namespace.isEmpty()) {
            metadata.put("namespace", namespace);
        }
        binding.putObject("roleRef").put("apiGroup", RbacTypes.GROUP).put("kind", roleKind).put("name", roleName);
        ArrayNode list = binding.putArray("subjects");
        for (ObjectNode subject : subjects) {
            list.add(subject);
        }
        return binding;
    }

    ChangeEvent clusterRole(String name, ObjectNode... rules) {
        return create(PolicySnapshot.CLUSTER_ROLES, "", roleObject("ClusterRole", "", name, rules));
    }

    ChangeEvent role(String namespace, String name, ObjectNode... rules) {
        return create(PolicySnapshot.ROLES, namespace, roleObject("Role", namespace, name, rules));
    }

    ChangeEvent clusterRoleBinding(String name, String roleName, ObjectNode... subjects) {
        return create(PolicySnapshot.CLUSTER_ROLE_BINDINGS, "",
                bindingObject("ClusterRoleBinding", "", name, "ClusterRole", roleName, subjects));
    }

    ChangeEvent roleBinding(String namespace, String name, String roleKind, String roleName,
            ObjectNode... subjects) {
        return create(PolicySnapshot.ROLE_BINDINGS, namespace,
                bindingObject("RoleBinding", namespace, name, roleKind, roleName, subjects));
    }

    ChangeEvent create(String resource, String namespace, ObjectNode object) {
        String name = object.path("metadata").path("name").asText();
        return Commits.commit(store, Mutation.create(new ObjectKey(resource, namespace, name), object));
    }

    ChangeEvent update(String resource, String namespace, ObjectNode object) {
        String name = object.path("metadata").path("name").asText();
        return Commits.commit(store, Mutation.update(new ObjectKey(resource, namespace, name), object, 0));
    }

    ChangeEvent delete(String resource, String namespace, String name) {
        return Commits.commit(store, Mutation.delete(new ObjectKey(resource, namespace, name), 0));
    }

    boolean allows(Attributes request) {
        return authorizer.authorize(request).allowed();
    }
}
