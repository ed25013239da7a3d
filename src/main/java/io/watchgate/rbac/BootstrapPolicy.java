package io.watchgate.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.runtime.StartupEvent;
import io.watchgate.objects.ObjectWrites;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import io.watchgate.types.RbacTypes;
import io.watchgate.types.ResourceType;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * kube-apiserver's default ClusterRoles and ClusterRoleBindings (cluster-admin for system:masters, discovery and
 * basic-user for everyone signed in, admin/edit/view to grant), created at every start when missing, as kube's
 * bootstrap policy does. A deleted default comes back at the next start; one an operator changed is left as it is.
 * The definitions are data, in {@value #RESOURCE}.
 */
@Singleton
public class BootstrapPolicy {

    static final String RESOURCE = "rbac/bootstrap-policy.yaml";
    static final String BOOTSTRAPPING_LABEL = "kubernetes.io/bootstrapping";
    static final String AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";

    private static final Logger LOG = Logger.getLogger(BootstrapPolicy.class);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** At the default priority, with the default namespace: before seed data and the aggregation controller. */
    void ensure(@Observes StartupEvent event, Store store, ObjectWrites writes) {
        int created = 0;
        for (ObjectNode object : clusterRoles()) {
            created += ensure(store, writes, RbacTypes.CLUSTER_ROLES, object);
        }
        for (ObjectNode object : clusterRoleBindings()) {
            created += ensure(store, writes, RbacTypes.CLUSTER_ROLE_BINDINGS, object);
        }
        if (created > 0) {
            LOG.infof("created %d default RBAC objects", created);
        }
    }

    private static int ensure(Store store, ObjectWrites writes, ResourceType type, ObjectNode object) {
        String name = object.path("metadata").path("name").asText();
        if (store.get(new ObjectKey(type.resource(), "", name), store.currentRevision()) != null) {
            return 0;
        }
        return writes.createAtStart(type, "", object) ? 1 : 0;
    }

    /** The default ClusterRoles, as objects ready to create. */
    static List<ObjectNode> clusterRoles() {
        List<ObjectNode> roles = new ArrayList<>();
        for (JsonNode role : policy().path("clusterRoles")) {
            ObjectNode object = typed(RbacTypes.CLUSTER_ROLES);
            object.setAll((ObjectNode) role.deepCopy());
            roles.add(withDefaultMetadata(object));
        }
        return roles;
    }

    /** The default ClusterRoleBindings: each binds the ClusterRole of its name to groups. */
    static List<ObjectNode> clusterRoleBindings() {
        List<ObjectNode> bindings = new ArrayList<>();
        for (JsonNode binding : policy().path("clusterRoleBindings")) {
            ObjectNode object = typed(RbacTypes.CLUSTER_ROLE_BINDINGS);
            String name = binding.path("name").asText();
            object.putObject("metadata").put("name", name);
            object.putObject("roleRef").put("apiGroup", RbacTypes.GROUP).put("kind", "ClusterRole").put("name", name);
            for (JsonNode group : binding.path("groups")) {
                object.withArray("subjects").addObject().put("kind", "Group").put("apiGroup", RbacTypes.GROUP)
                        .put("name", group.asText());
            }
            bindings.add(withDefaultMetadata(object));
        }
        return bindings;
    }

    private static ObjectNode typed(ResourceType type) {
        return JsonNodeFactory.instance.objectNode().put("apiVersion", type.apiVersion()).put("kind", type.kind());
    }

    private static ObjectNode withDefaultMetadata(ObjectNode object) {
        ObjectNode metadata = object.withObject("/metadata");
        metadata.withObject("/labels").put(BOOTSTRAPPING_LABEL, "rbac-defaults");
        metadata.withObject("/annotations").put(AUTOUPDATE_ANNOTATION, "true");
        return object;
    }

    private static JsonNode policy() {
        try (InputStream in = BootstrapPolicy.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            return YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + RESOURCE, e);
        }
    }
}
