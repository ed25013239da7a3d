package io.watchgate.authz.rbac;

import static io.watchgate.authz.rbac.Rbac.get;
import static io.watchgate.authz.rbac.Rbac.person;
import static io.watchgate.authz.rbac.Rbac.rule;
import static io.watchgate.authz.rbac.Rbac.user;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.watchgate.store.Commits;
import io.watchgate.store.Mutation;
import io.watchgate.store.ObjectKey;
import io.watchgate.store.Store;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

/** The beans are wired in the application: the feed follows the application's store from its start. */
@QuarkusTest
class RbacInTheApplicationTest {

    @Inject
    Store store;
    @Inject
    RbacAuthorizer authorizer;
    @Inject
    EscalationGuard guard;

    @Test
    void aBindingWrittenToTheStoreIsInForceWhenItsWriteCompletes() {
        var reader = get(person("wired-alice"), "pods", "default", "p");
        assertFalse(authorizer.authorize(reader).allowed());
        Commits.commit(store, Mutation.create(new ObjectKey(PolicySnapshot.CLUSTER_ROLES, "", "wired-reader"),
                Rbac.roleObject("ClusterRole", "", "wired-reader",
                        rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}"))));
        Commits.commit(store, Mutation.create(new ObjectKey(PolicySnapshot.CLUSTER_ROLE_BINDINGS, "", "wired"),
                Rbac.bindingObject("ClusterRoleBinding", "", "wired", "ClusterRole", "wired-reader",
                        user("wired-alice"))));
        assertTrue(authorizer.authorize(reader).allowed());
        assertTrue(guard.notHeld(person("wired-alice"), "default", java.util.List.of(
                PolicyRule.from(rule("{'verbs':['get'],'apiGroups':[''],'resources':['pods']}")))).covered());
    }
}
